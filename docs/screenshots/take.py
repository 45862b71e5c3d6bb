"""Take the screenshots of the web page in this folder: 3x3, 4x4 and 7x7, during and after a solve.

Run from the repository (needs ``pip install -e '.[test]'`` and Debian's ``chromium`` and
``chromium-driver``)::

    python docs/screenshots/take.py

It starts ``npuzzle serve`` on a free port of 127.0.0.1, drives the page in headless Chromium
and writes ``{3x3,4x4,7x7}-{during,after}.png`` beside itself. "During" is the live status of a
running search where the search takes long enough to see it (the 4x4), else the animation of
the answer half played.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

HERE = Path(__file__).resolve().parent
#: Korf's position #88 (blank-first goal): some seconds of IDA* with the walking distance, long
#: enough to see the live status.
KORF_88 = "15,2,12,11/14,13,9,5/1,3,8,7/0,10,6,4&g=blank-first"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1000,1100", "--hide-scrollbars"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)


def text(driver: webdriver.Chrome, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def wait(driver: webdriver.Chrome, condition: object, timeout: float = 600) -> None:
    WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition())  # type: ignore[operator]


def shot(driver: webdriver.Chrome, name: str) -> None:
    path = HERE / f"{name}.png"
    driver.find_element(By.TAG_NAME, "main").screenshot(str(path))
    print(f"wrote {path.relative_to(HERE.parent.parent)}")


def open_page(driver: webdriver.Chrome, url: str) -> None:
    driver.get("about:blank")
    driver.get(url)
    wait(driver, lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def half_played(driver: webdriver.Chrome) -> None:
    """Step the answer's animation forward to its middle."""
    steps = int(text(driver, "steps"))
    for _ in range(steps // 2):
        driver.find_element(By.ID, "forward").click()


def solve_and_shoot(driver: webdriver.Chrome, url: str, name: str, method: str = "auto") -> None:
    open_page(driver, url)
    driver.execute_script(f"document.getElementById('method').value = '{method}';")
    driver.find_element(By.ID, "solve").click()
    if name == "4x4":  # the live status and the Cancel button while the server searches
        wait(driver, lambda: "bound" in text(driver, "status"))
        time.sleep(1.5)
        shot(driver, f"{name}-during")
    wait(driver, lambda: text(driver, "outcome") != "" and not text(driver, "outcome").startswith("solving"))
    if name != "4x4":
        half_played(driver)
        shot(driver, f"{name}-during")
        open_page(driver, url)  # the answer again, on the starting board
        driver.find_element(By.ID, "solve").click()
        wait(driver, lambda: text(driver, "outcome") != "")
    shot(driver, f"{name}-after")


def main() -> int:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "npuzzle", "serve", "--port", str(port),
                               "--time-limit", "600"])
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base, timeout=5).close()
                break
            except OSError:
                time.sleep(0.2)
        driver = start_browser()
        try:
            solve_and_shoot(driver, base + "#p=8,6,7/2,5,4/3,0,1", "3x3")
            solve_and_shoot(driver, base + "#p=" + KORF_88, "4x4", method="idastar")
            position = _scramble(base, "7x7")
            solve_and_shoot(driver, base + "#p=" + position, "7x7")
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait(30)
    return 0


def _scramble(base: str, shape: str) -> str:
    import json

    with urllib.request.urlopen(f"{base}api/scramble?shape={shape}&seed=7", timeout=60) as response:
        record = json.loads(response.read())
    return "/".join(",".join(part.split()) for part in str(record["position"]).split("/"))


if __name__ == "__main__":
    sys.exit(main())
