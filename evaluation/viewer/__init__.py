"""The static HTML results viewer (`lengthwise report --html`)."""
