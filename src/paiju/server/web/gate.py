"""What every HTTP request must be before a route reads it — one rule for all routes, so
a new route cannot forget it (issue 34):

- its address (path and query) holds no NUL: text no database takes (400 ``bad_value``);
- a request that may change something (any method but GET, HEAD and OPTIONS) comes from a
  page of the hall (:class:`~paiju.server.web.origin.OriginPolicy`, 403 ``refused_origin``)
  and says its body is ``application/json`` — an HTML form of another site cannot send
  that type without a CORS preflight the hall never grants (415 ``json_only``), even when
  the route reads no body at all (``/api/logout``, ``/api/relief``).
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from paiju.errors import IllegalAction
from paiju.server import reasons as _reasons  # noqa: F401 - registers the codes answered here
from paiju.server.web.origin import OriginPolicy

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def refusal(scope: Scope, policy: OriginPolicy) -> tuple[int, IllegalAction] | None:
    """Why this HTTP request is refused before any route reads it (None: it is not)."""
    raw = scope.get("raw_path") or scope["path"].encode()
    if b"\x00" in unquote_to_bytes(raw) or b"\x00" in unquote_to_bytes(scope.get("query_string", b"")):
        return 400, IllegalAction("the address contains a NUL character", "bad_value", where="the address")
    if scope["method"] in SAFE_METHODS:
        return None
    headers = Headers(scope=scope)
    why = policy.refuses(headers, scope.get("scheme", "http"))
    if why:
        return 403, IllegalAction(why, "refused_origin")
    if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return 415, IllegalAction("send the body as application/json", "json_only")
    return None


class Gate:
    """ASGI middleware answering :func:`refusal`'s refusals; other requests pass on."""

    def __init__(self, app: ASGIApp, policy: OriginPolicy) -> None:
        self.app, self.policy = app, policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = refusal(scope, self.policy) if scope["type"] == "http" else None
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, e = refused
        body = {"error": str(e), "code": e.code, "params": e.params}
        await JSONResponse(body, status_code=status)(scope, receive, send)
