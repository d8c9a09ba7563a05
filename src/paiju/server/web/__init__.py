"""The transport: the ASGI app and what guards its doors.

- ``app.create_app`` — the Starlette app: pages, the lobby's and accounts' HTTP API, the
  table WebSocket ``/ws/{room}``, the hall's lifespan (``open_store``);
- ``serve.serve`` — uvicorn with the hall's limits (``paiju serve``; ``python -m
  paiju.server.web.serve``), ``serve.cluster_settings``;
- ``protocol.parse_client_message`` — every client message checked against its schema;
- ``origin`` (Origin checks, security headers), ``slow_clients`` (header and close
  timeouts), ``collector`` (the process's garbage collector).
"""
