"""The reference for `manage.py bench`: a bare ASGI app that answers every request with a small JSON
body, served by the same uvicorn with the same options as the service. What a request costs this
app is the server's own share (HTTP parsing, the event loop); the service's CPU per request is
reported as a multiple of it, so the figure means the same on a faster or slower machine."""

BODY = b'{"status":"ok"}'
HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]


async def application(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": BODY})
