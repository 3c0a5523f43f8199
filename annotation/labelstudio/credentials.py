"""The Label Studio admin account: from the environment or generated once, kept 0600.

The first `annotate serve` writes WORK/labelstudio/credentials.json with the admin
e-mail, password and legacy API token (taken from LABEL_STUDIO_USERNAME,
LABEL_STUDIO_PASSWORD and the spec's `annotation.api_key_env` variable when set,
generated otherwise) and a Django secret key (so browser sessions survive restarts).
Later starts reuse the file. Nothing here is ever logged; commands say where the file is.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path

from lengthwise.errors import InputFileError, UserError
from lengthwise.storage import atomic_write_text

DEFAULT_USERNAME = "admin@lengthwise.local"


@dataclass(frozen=True)
class Credentials:
    username: str  # an e-mail address: Label Studio logs users in by e-mail
    password: str
    token: str  # legacy API token ("Authorization: Token ...")
    secret_key: str


def load_credentials(path: Path) -> Credentials | None:
    if not path.is_file():
        return None
    try:
        row = json.loads(path.read_text(encoding="utf-8"))
        return Credentials(
            **{k: str(row[k]) for k in ("username", "password", "token", "secret_key")}
        )
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InputFileError(
            f"{path}: not a credentials file ({exc}); delete it to regenerate"
        ) from None


def load_or_create_credentials(
    path: Path, token_env: str = "LABEL_STUDIO_API_KEY", environ: dict[str, str] | None = None
) -> Credentials:
    """The stored credentials, or new ones (environment first, then generated), stored 0600."""
    existing = load_credentials(path)
    if existing is not None:
        return existing
    env = dict(os.environ if environ is None else environ)
    token = env.get(token_env) or secrets.token_hex(20)
    if len(token) < 6:
        raise UserError(f"${token_env}: a Label Studio token needs at least 6 characters")
    credentials = Credentials(
        username=env.get("LABEL_STUDIO_USERNAME") or DEFAULT_USERNAME,
        password=env.get("LABEL_STUDIO_PASSWORD") or secrets.token_urlsafe(18),
        token=token,
        secret_key=secrets.token_urlsafe(50),
    )
    atomic_write_text(path, json.dumps(asdict(credentials), indent=2) + "\n")
    os.chmod(path, 0o600)  # mkstemp already creates 0600; say it explicitly
    return credentials


def resolve_token(
    credentials_path: Path, token_env: str, environ: dict[str, str] | None = None
) -> str:
    """The API token a client should use: the spec's env variable, else the stored one."""
    env = os.environ if environ is None else environ
    token = env.get(token_env)
    if token:
        return token
    stored = load_credentials(credentials_path)
    if stored is None:
        raise UserError(
            f"no Label Studio API token: set ${token_env} or start the server once with "
            f"`lengthwise annotate serve` (it writes {credentials_path})"
        )
    return stored.token
