"""A lecture hall on one machine: N Streamlit processes behind nginx, sticky per browser.

One Streamlit process runs its sessions' reruns on about one core (one interpreter, one lock), so a
class larger than one process can serve gets several processes. A session's websocket and uploads
must reach the process that holds its state: nginx (deploy/nginx.conf.template) sends every request
of one browser to the same process. ``make lecture-hall N=2`` runs this file:

    python deploy/lecture_hall.py --processes 2 --listen 0.0.0.0:8080

Students open http://<this machine>:8080/. Ctrl-C stops nginx and every process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = Path(__file__).with_name("nginx.conf.template")


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).is_file()), None)


def render_config(backend_ports: list[int], listen: str, run: Path) -> str:
    """nginx.conf for these Streamlit ports (on 127.0.0.1), listening on ``listen``, files under ``run``."""
    servers = "\n".join(
        f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;" for port in backend_ports
    )
    return TEMPLATE.read_text().format(run=run, listen=listen, servers=servers)


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (for runs on loopback: the tests, deploy/hall_load.py)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


class LectureHall:
    """N ``streamlit run`` processes on loopback ports and nginx in front of them."""

    def __init__(self, backend_ports: list[int], listen: str, run: Path, python: str = sys.executable):
        self.backend_ports, self.listen, self.run, self.python = backend_ports, listen, Path(run), python
        self.processes: dict[int, subprocess.Popen] = {}
        self.nginx: subprocess.Popen | None = None

    def start(self, wait_seconds: float = 120.0) -> None:
        nginx = nginx_binary()
        if nginx is None:
            raise RuntimeError("nginx is not installed (make lecture-hall installs Debian's package)")
        self.run.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        for port in self.backend_ports:
            log = (self.run / f"streamlit-{port}.log").open("w")
            self.processes[port] = subprocess.Popen(
                [self.python, "-m", "streamlit", "run", "streamlit_app.py", f"--server.port={port}"]
                + ["--server.address=127.0.0.1", "--server.headless=true", "--server.fileWatcherType=none"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        conf = self.run / "nginx.conf"
        conf.write_text(render_config(self.backend_ports, self.listen, self.run.resolve()))
        subprocess.run(
            [nginx, "-t", "-p", str(self.run), "-e", str(self.run / "error.log"), "-c", str(conf)],
            check=True,
            capture_output=True,
        )
        self.nginx = subprocess.Popen(
            [
                nginx,
                "-p",
                str(self.run),
                "-e",
                str(self.run / "error.log"),
                "-c",
                str(conf),
                "-g",
                "daemon off;",
            ]
        )
        deadline = time.monotonic() + wait_seconds
        for port in self.backend_ports:
            while not healthy(f"http://127.0.0.1:{port}/_stcore/health"):
                if self.processes[port].poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the process on port {port} did not start: see {self.run}")
                time.sleep(0.5)

    def kill(self, port: int) -> None:
        """End one process at once, as a crash would (the test's failover)."""
        self.processes[port].kill()
        self.processes[port].wait()

    def stop(self) -> None:
        for proc in [self.nginx, *self.processes.values()]:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in [self.nginx, *self.processes.values()]:
            if proc is not None:
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2, help="Streamlit processes (about one per core)")
    parser.add_argument("--listen", default="0.0.0.0:8080", help="where nginx listens (address:port)")
    parser.add_argument("--first-port", type=int, default=8601, help="the processes' ports on 127.0.0.1")
    parser.add_argument("--run", type=Path, default=ROOT / ".cache" / "lecture-hall", help="config and logs")
    args = parser.parse_args()
    hall = LectureHall([args.first_port + i for i in range(args.processes)], args.listen, args.run)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    hall.start()
    print(
        f"lecture hall: {args.processes} processes behind http://{args.listen}/ (logs in {args.run})",
        flush=True,
    )
    try:
        while all(p.poll() is None for p in [hall.nginx, *hall.processes.values()]):
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        hall.stop()


if __name__ == "__main__":
    main()
