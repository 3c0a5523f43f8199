"""Label Studio sync: a local server, the labeling interface, push and pull.

Only `lengthwise.annotation.labelstudio.sdk` imports ``label_studio_sdk`` (pinned to
``>=2.1,<3``; the SDK broke its API at 1.0 and 2.0).
"""
