"""Fixtures for the source readers: sample texts written for these tests and a local web site.

The web site is a `http.server.ThreadingHTTPServer` on 127.0.0.1 (random port) that answers
from a table of canned replies (or from files under a folder) and logs every request it gets,
so tests can count requests and measure the spacing between them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

# Original text written for these tests (simplified Chinese, about 300 characters).
ZH_SIMPLIFIED = (
    "第一章　山中小镇\n\n"
    "　　清晨的雾气还没有散去，小镇东头的石桥上已经有了来往的行人。卖豆腐的老张挑着担子，"
    "一边走一边吆喝，声音在狭窄的巷子里回荡。河边的柳树刚刚抽出新芽，几只麻雀在枝头跳来跳去，"
    "仿佛也在赶着什么要紧的事情。\n"
    "　　李家的小女儿阿梅推开木窗，看见对面茶馆的门口聚着一群人，正围着一位说书先生。"
    "那先生手里拿着一把旧折扇，讲的是前朝一位将军守城的故事。听众们时而屏住呼吸，时而拍手叫好，"
    "连路过的货郎也放下担子，站在人群后面踮起脚来张望。\n"
    "　　阿梅的母亲在灶台前忙碌，锅里煮着稀饭，香气飘满了整个院子。她叫阿梅快去井边打水，"
    "又叮嘱她路上不要贪玩。阿梅答应了一声，提起木桶跑出了门。\n"
)

# The same passage in traditional characters, for Big5.
ZH_TRADITIONAL = (
    "第一章　山中小鎮\n\n"
    "　　清晨的霧氣還沒有散去，小鎮東頭的石橋上已經有了來往的行人。賣豆腐的老張挑著擔子，"
    "一邊走一邊吆喝，聲音在狹窄的巷子裡迴盪。河邊的柳樹剛剛抽出新芽，幾隻麻雀在枝頭跳來跳去，"
    "彷彿也在趕著什麼要緊的事情。\n"
    "　　李家的小女兒阿梅推開木窗，看見對面茶館的門口聚著一群人，正圍著一位說書先生。"
    "那先生手裡拿著一把舊摺扇，講的是前朝一位將軍守城的故事。聽眾們時而屏住呼吸，時而拍手叫好，"
    "連路過的貨郎也放下擔子，站在人群後面踮起腳來張望。\n"
    "　　阿梅的母親在灶臺前忙碌，鍋裡煮著稀飯，香氣飄滿了整個院子。她叫阿梅快去井邊打水，"
    "又叮囑她路上不要貪玩。阿梅答應了一聲，提起木桶跑出了門。\n"
)

PNG_HEADER = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 200


@dataclass
class Reply:
    """One canned HTTP answer."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (timeouts)
    send_length: bool = True  # False: close-delimited body without Content-Length


@dataclass
class Hit:
    path: str
    at: float  # time.monotonic() when the request arrived
    user_agent: str


class FakeSite:
    """Canned replies per path (a list is served in order, its last reply repeating)."""

    Reply = Reply  # tests build replies as site.Reply(...): test modules cannot import conftest

    def __init__(self, root: Path | None = None) -> None:
        self.routes: dict[str, list[Reply]] = {}
        self.root = root  # serve files from here when no route matches
        self.hits: list[Hit] = []
        self.url = ""
        self._lock = threading.Lock()

    def add(self, path: str, *replies: Reply) -> str:
        self.routes[path] = list(replies)
        return self.url + path

    def count(self, path: str | None = None) -> int:
        return sum(1 for hit in self.hits if path is None or hit.path == path)

    def times(self, path_prefix: str) -> list[float]:
        return [hit.at for hit in self.hits if hit.path.startswith(path_prefix)]

    def reply_for(self, path: str) -> Reply:
        with self._lock:
            replies = self.routes.get(path)
            if replies:
                return replies.pop(0) if len(replies) > 1 else replies[0]
        if self.root is not None:
            file = (self.root / path.lstrip("/")).resolve()
            if file.is_file() and self.root.resolve() in file.parents:
                kind = "text/plain; charset=utf-8" if file.suffix == ".txt" else "text/html"
                return Reply(body=file.read_bytes(), headers={"Content-Type": kind})
        return Reply(status=404, body=b"not found")


def _handler_for(site: FakeSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            site.hits.append(Hit(self.path, time.monotonic(), self.headers.get("User-Agent", "")))
            reply = site.reply_for(self.path)
            if reply.delay:
                time.sleep(reply.delay)
            try:
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if reply.send_length:
                    self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout and size-cap tests)

        def log_message(self, format: str, *args: object) -> None:
            pass  # keep test output clean

    return Handler


@pytest.fixture
def site() -> Iterator[FakeSite]:
    """A local web site on 127.0.0.1; `site.url` is its base URL."""
    fake = FakeSite()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(fake))
    server.daemon_threads = True
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def zh_simplified() -> str:
    return ZH_SIMPLIFIED


@pytest.fixture
def zh_traditional() -> str:
    return ZH_TRADITIONAL


@pytest.fixture
def zh_texts() -> dict[str, str]:
    return {"simplified": ZH_SIMPLIFIED, "traditional": ZH_TRADITIONAL}


@pytest.fixture
def png_bytes() -> bytes:
    return PNG_HEADER


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """requests honours proxy variables; the local site must be reached directly."""
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
