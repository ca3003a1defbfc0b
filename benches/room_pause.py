# The time from a result (won or buried) to the next cards in a room of
# `prime-solve serve` with the default pause, its one person passing and
# never pressing next. Usage (Python 3 with `pip install websockets`):
#   python3 benches/room_pause.py 127.0.0.1:8080 6
import asyncio, json, time, urllib.request, statistics, sys
import websockets
ADDR = sys.argv[1]
def post(path, body):
    req = urllib.request.Request(f"http://{ADDR}{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req))
async def main():
    room = post("/api/v1/rooms", {"seats": 3, "bots": "beginner,beginner", "limit": 5})
    gaps = []
    async with websockets.connect(f"ws://{ADDR}/api/v1/rooms/{room['code']}/ws?token={room['token']}") as ws:
        await ws.send(json.dumps({"type": "start"}))
        result_at = None
        while len(gaps) < int(sys.argv[2]):
            m = json.loads(await ws.recv())
            if m["type"] == "turn":
                if result_at is not None:
                    gaps.append(time.monotonic() - result_at)
                if 0 in m["seats"]:
                    await ws.send(json.dumps({"type": "pass", "turn": m["turn"]}))
            elif m["type"] in ("won", "buried"):
                result_at = time.monotonic()
            elif m["type"] == "game_over":
                break
    print(f"{len(gaps)} gaps: median {statistics.median(gaps):.2f} s, min {min(gaps):.2f}, max {max(gaps):.2f}")
asyncio.run(main())
