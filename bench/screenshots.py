"""Screenshots of ``npuzzle serve``'s page at a phone's size (390x844, touch), a tablet's (768x1024)
and a desktop's (1280x800): the first view (a fresh random-state 4x4 scramble), a 4x4 mid-solve
(the timer running, fringe colours) and the analysis of a played 3x3 solve with two detours in
it. Written to ``docs/screenshots/{phone,tablet,desktop}-{first,mid,analysis}.png``.

Needs selenium and Debian's ``chromium`` and ``chromium-driver``; starts its own server on a free
port of 127.0.0.1::

    PYTHONPATH=src python bench/screenshots.py
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from web_server import Server, running_server  # noqa: E402

from npuzzle import Board  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
SIZES = {"phone": (390, 844, True), "tablet": (768, 1024, False), "desktop": (1280, 800, False)}
KEYS = {"L": Keys.ARROW_LEFT, "R": Keys.ARROW_RIGHT, "U": Keys.ARROW_UP, "D": Keys.ARROW_DOWN}
OPPOSITE = {"L": "R", "R": "L", "U": "D", "D": "U"}


def browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,1100", "--hide-scrollbars"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)


def wait(driver: webdriver.Chrome, condition: Any, timeout: float = 300) -> None:
    WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition())


def open_page(driver: webdriver.Chrome, server: Server, size: tuple[int, int, bool], fragment: str = "") -> None:
    width, height, phone = size
    driver.get("about:blank")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5})
    driver.get(f"{server.url}/{fragment}")
    wait(driver, lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    wait(driver, lambda: board(driver) is not None and not board(driver).is_goal())  # type: ignore[union-attr]


def board(driver: webdriver.Chrome) -> Board | None:
    element = driver.find_element(By.ID, "board")
    shape, tiles = element.get_attribute("data-shape") or "", element.get_attribute("data-tiles") or ""
    if not shape or not tiles:
        return None
    h, w = map(int, shape.split("x"))
    return Board(h, w, tuple(int(t) for t in tiles.split()))


def press(driver: webdriver.Chrome, letters: str) -> None:
    body = driver.find_element(By.TAG_NAME, "body")
    for letter in letters:
        body.send_keys(KEYS[letter])


def shot(driver: webdriver.Chrome, name: str) -> None:
    time.sleep(0.4)  # the last slide ends
    path = OUT / f"{name}.png"
    path.write_bytes(driver.get_screenshot_as_png())
    print(f"wrote {path.relative_to(OUT.parents[1])}")


def take(driver: webdriver.Chrome, server: Server, label: str, size: tuple[int, int, bool]) -> None:
    open_page(driver, server, size)
    driver.execute_script("localStorage.clear()")
    open_page(driver, server, size)
    shot(driver, f"{label}-first")
    driver.execute_script("const s = document.getElementById('scheme'); s.value = 'fringe';"
                          "s.dispatchEvent(new Event('change'));")
    start = board(driver)
    assert start is not None
    letters = server.solve({"position": " ".join(map(str, start.tiles)), "shape": "4x4"})["result"]["letters"]
    press(driver, letters[:len(letters) // 2])
    time.sleep(1.2)  # the timer runs
    shot(driver, f"{label}-mid")
    driver.execute_script("const s = document.getElementById('scheme'); s.value = 'plain';"
                          "s.dispatchEvent(new Event('change'));")
    _analysed_solve(driver, server, size)
    driver.execute_script("document.getElementById('analysis').scrollIntoView({block: 'start'})")
    shot(driver, f"{label}-analysis")


def _analysed_solve(driver: webdriver.Chrome, server: Server, size: tuple[int, int, bool]) -> None:
    """A 3x3 scramble solved by keys with two detours (a move and its undoing, as moves)."""
    status, record = server.request("GET", "/api/scramble?shape=3x3&seed=32")
    assert status == 200
    tiles = ".".join(map(str, record["tiles"]))
    open_page(driver, server, size, f"#3x3/{tiles}")
    optimal = server.solve({"position": record["position"]})["result"]["letters"]
    played, here = "", Board(3, 3, tuple(record["tiles"]))
    for i, letter in enumerate(optimal):
        if i in (4, 11):
            detour = next(x for x in "LURD" if x != letter and _legal(here, x))
            played += detour + OPPOSITE[detour]
        played += letter
        here = here.apply(letter)
    press(driver, played)
    wait(driver, lambda: "Your solution:" in driver.find_element(By.ID, "an-summary").text)


def _legal(board: Board, letter: str) -> bool:
    try:
        board.apply(letter)
    except Exception:
        return False
    return True


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with running_server("--workers", "2") as server:
        driver = browser()
        try:
            for label, size in SIZES.items():
                take(driver, server, label, size)
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
