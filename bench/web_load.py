"""A bounded load test of ``npuzzle serve`` on 127.0.0.1: two expensive solves hold both workers
(IDA* with the Manhattan distance on Korf's #1, far beyond its time limit), and meanwhile 8-puzzle
solves come from up to 20 clients at once. Prints the 8-puzzles' answer times (median, worst),
the HTTP statuses seen, and the server's memory (its process and its workers', resident) before,
at the peak and after, once the expensive jobs are cancelled and the workers that grew have been
replaced. At most ``--seconds`` of traffic (60 by default), to 127.0.0.1 only.

    PYTHONPATH=src python bench/web_load.py --clients 20 --seconds 60
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from web_server import running_server  # noqa: E402

from npuzzle.instances import scramble  # noqa: E402

HARD = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"


def rss_of_tree(pid: int) -> int:
    """Resident bytes of ``pid`` and its descendants (from /proc)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children[int(fields[1])].append(int(entry))
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += children.get(p, [])
    return total


def post(url: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def get(url: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clients", type=int, default=20, help="8-puzzle clients at once (at most 20)")
    p.add_argument("--seconds", type=float, default=60.0, help="traffic for at most this long (at most 60)")
    args = p.parse_args()
    clients, seconds = min(args.clients, 20), min(args.seconds, 60.0)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M')}")
    with running_server("--workers", "2", "--time-limit", "30") as server:
        url = server.url
        time.sleep(3)  # the workers load their kernels
        start_rss = rss_of_tree(server.process.pid)
        hard = [post(url + "/api/solve", {"position": HARD, "method": "idastar", "heuristic": "manhattan"})[1]["id"]
                for _ in range(2)]
        statuses: collections.Counter[int] = collections.Counter()
        times: list[float] = []
        lock = threading.Lock()
        boards = [" ".join(map(str, b.tiles)) for b in scramble(3, 3, 1000, seed=3)]
        stop_at = time.monotonic() + seconds
        peak = [start_rss]

        def client(k: int) -> None:
            i = k
            while time.monotonic() < stop_at and i < len(boards):
                t = time.monotonic()
                code, job = post(url + "/api/solve", {"position": boards[i]})
                while code == 202 or (code == 200 and job.get("state") in ("queued", "running")):
                    code, job = get(url + f"/api/solve/{job['id']}?wait=10")
                    if job.get("state") not in ("queued", "running"):
                        break
                with lock:
                    statuses[code] += 1
                    times.append(time.monotonic() - t)
                i += clients

        threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            peak[0] = max(peak[0], rss_of_tree(server.process.pid))
            time.sleep(0.5)
        states = [get(url + f"/api/solve/{h}")[1]["state"] for h in hard]
        for h in hard:
            req = urllib.request.Request(url + f"/api/solve/{h}", method="DELETE")
            urllib.request.urlopen(req, timeout=60).read()
        time.sleep(5)  # the killed workers are replaced
        end_rss = rss_of_tree(server.process.pid)
    print(f"8-puzzle solves: {len(times):,} from {clients} clients in {seconds:g} s; answer time median "
          f"{statistics.median(times):.3f} s, worst {max(times):.3f} s")
    print(f"expensive jobs still running when the traffic ended: {states}")
    print(f"HTTP statuses: {dict(sorted(statuses.items()))}; 5xx: {sum(n for c, n in statuses.items() if c >= 500)}")
    print(f"server memory (resident, with its workers): start {start_rss / 2**20:.0f} MB, peak "
          f"{peak[0] / 2**20:.0f} MB, after {end_rss / 2**20:.0f} MB ({(end_rss - start_rss) / 2**20:+.0f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
