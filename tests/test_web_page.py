"""The web page of ``npuzzle serve`` driven in headless Chromium (Selenium) as a player would, at a
phone's size with touch (390x844), a tablet's (768x1024) and a desktop's (1280x800): no horizontal
overflow at any board size the page offers, touch targets of 44 px on the phone, tiles moved by
arrow keys, a mouse drag and a touch swipe, timed solves with the session's averages, the analysis
of a known solve, share links that round-trip (old ones too) and bad links that keep a board, and
the solver with its replay. Skipped, with the reason, only where no browser can run (install it
with ``apt-get install -y chromium chromium-driver``, as ``.ci/run`` does); under CI (``CI=true``,
which ``.ci/run`` sets, or ``NPUZZLE_REQUIRE_BROWSER=1``) selenium or a browser that is missing or
cannot start fails them instead, so they never vanish from a green CI run."""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

#: A browser per test and first solves on a cold server: part of the full suite, not the fast subset.
pytestmark = pytest.mark.slow

#: Under CI (``CI=true``, as CI services and ``.ci/run`` set it) or ``NPUZZLE_REQUIRE_BROWSER=1``, a
#: missing module or browser fails these tests instead of skipping them.
REQUIRE_BROWSER = (os.environ.get("NPUZZLE_REQUIRE_BROWSER") == "1"
                   or os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"))


def _required(module: str, reason: str) -> object:
    """``module``, else skip the page's tests with ``reason`` (fail them where they must run)."""
    if not REQUIRE_BROWSER:
        return pytest.importorskip(module, reason=reason)
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"{reason}, and CI=true (or NPUZZLE_REQUIRE_BROWSER=1) says the page's tests must run: "
                          f"{e}") from None


_required("starlette", "the web extra (pip install 'npuzzle[web]') is not installed")
_required("uvicorn", "the web extra (pip install 'npuzzle[web]') is not installed")
webdriver: Any = _required("selenium.webdriver", "selenium is not installed (pip install selenium)")

from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from web_server import Server, running_server  # noqa: E402

from npuzzle import Board  # noqa: E402
from npuzzle.errors import IllegalMoveError  # noqa: E402
from npuzzle.notation import format_letters  # noqa: E402

#: Where Debian's packages put the browser and its driver (else found on the PATH).
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")
#: The longest wait for the page (a first solve may compile the kernels).
WAIT = 300
#: The sizes the page is checked at: (width, height, a phone with touch).
PHONE, TABLET, DESKTOP = (390, 844, True), (768, 1024, False), (1280, 800, False)
NARROW = (320, 640, True)  # the narrowest phone the page is made for
KEYS = {"L": Keys.ARROW_LEFT, "R": Keys.ARROW_RIGHT, "U": Keys.ARROW_UP, "D": Keys.ARROW_DOWN}
SOLVED_3X3 = "1 2 3 4 5 6 7 8 0"


def no_browser(reason: str) -> None:
    """Skip the page's tests with ``reason``, or fail them where the browser is required."""
    if REQUIRE_BROWSER:
        pytest.fail(f"{reason}; CI=true (or NPUZZLE_REQUIRE_BROWSER=1) says this run must have one", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # An empty table store of its own, so that the heuristic the page names does not depend on
    # which tables earlier tests built (with none, a 3x3 is solved with wd+id).
    store = str(tmp_path_factory.mktemp("web-page-store"))
    with running_server("--workers", "2", "--time-limit", "600", store=store) as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None or CHROMEDRIVER is None:
        no_browser("no browser: chromium and chromedriver are not installed "
                   "(apt-get install -y chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,1000", "--no-first-run", "--disable-extensions"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's console, read by the tests
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except Exception as e:  # a browser that cannot start here (no display libraries, ...)
        no_browser(f"no browser: headless Chromium does not start ({type(e).__name__}: {str(e)[:200]})")
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def viewport(driver, size: tuple[int, int, bool]) -> None:
    """Emulate a screen of ``size``: width, height, and whether it is a phone (touch, mobile)."""
    width, height, phone = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 3 if phone else 1, "mobile": phone})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5})


def wait_for(driver, condition, timeout: float = WAIT):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition())


def tiles(driver) -> str:
    return driver.find_element(By.ID, "board").get_attribute("data-tiles") or ""


def text(driver, element_id: str) -> str:
    return str(driver.execute_script("return document.getElementById(arguments[0]).textContent", element_id))


def open_page(driver, server: Server, fragment: str = "", size: tuple[int, int, bool] = DESKTOP) -> None:
    driver.get("about:blank")
    viewport(driver, size)
    driver.get(f"{server.url}/{fragment}")
    wait_for(driver, lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def press(driver, letters: str) -> None:
    body = driver.find_element(By.TAG_NAME, "body")
    for letter in letters:
        body.send_keys(KEYS[letter])


def board_of(driver) -> Board:
    h, w = map(int, (driver.find_element(By.ID, "board").get_attribute("data-shape") or "").split("x"))
    return Board(h, w, tuple(int(t) for t in tiles(driver).split()))


def is_a_board(driver) -> bool:
    board = board_of(driver)
    return sorted(board.tiles) == list(range(board.size))


@pytest.mark.parametrize("size", [NARROW, PHONE, TABLET, DESKTOP], ids=["320px", "phone", "tablet", "desktop"])
def test_no_horizontal_overflow_at_any_board_size_and_44_px_targets_on_the_phone(server: Server, browser, size):
    open_page(browser, server, "#3x3/1.2.3.4.5.0.7.8.6/U/t=150", size)  # a replay: its buttons shown too
    if size[2]:
        small = browser.execute_script("""
            return [...document.querySelectorAll('button, select, input')].filter(b => b.offsetParent !== null)
              .map(b => [b.id || b.textContent, b.getBoundingClientRect().height]).filter(([, h]) => h < 44);""")
        assert small == []
        assert browser.execute_script(
            "return [...document.querySelectorAll('#player button')].filter(b => b.offsetParent).length") == 5
    browser.execute_script("localStorage.setItem('npuzzle.solves.v1', arguments[0])", json.dumps(WIDE_SOLVES))
    open_page(browser, server, "#3x3/1.2.3.4.5.0.7.8.6/U/t=150", size)
    clipped = browser.execute_script("""
        const table = document.getElementById('averages'), card = table.closest('section');
        table.scrollIntoView();
        const inner = card.getBoundingClientRect().right - parseFloat(getComputedStyle(card).paddingRight);
        return [table.getBoundingClientRect().right, inner, table.rows[1].cells[1].textContent];""")
    browser.execute_script("localStorage.clear()")
    assert clipped[0] <= clipped[1] and clipped[2] == "1:02.345", clipped  # the averages fit in their card
    overflow = browser.execute_script("""
        const out = [], rows = document.getElementById('rows'), cols = document.getElementById('cols');
        for (let h = 2; h <= 10; h++) for (let w = 2; w <= 10; w++) {
          rows.value = String(h); cols.value = String(w); cols.dispatchEvent(new Event('change'));
          const d = document.documentElement, board = document.getElementById('board').getBoundingClientRect();
          if (document.getElementById('board').dataset.shape !== h + 'x' + w) out.push(h + 'x' + w + ' not drawn');
          if (d.scrollWidth > d.clientWidth || board.right > d.clientWidth || board.left < 0)
            out.push(`${h}x${w}: ${d.scrollWidth} > ${d.clientWidth} or board ${board.left}..${board.right}`);
        }
        return out;""")
    assert overflow == []
    wait_for(browser, lambda: board_of(browser).shape == (10, 10) and not board_of(browser).is_goal())


def test_arrow_keys_a_drag_and_a_swipe_move_tiles(server: Server, browser):
    open_page(browser, server, "#3x3/1.2.3.4.5.6.7.8.0", PHONE)
    assert tiles(browser) == SOLVED_3X3
    press(browser, "R")  # the tile left of the blank slides right
    assert tiles(browser) == "1 2 3 4 5 6 7 0 8" and text(browser, "moves") == "1"
    touch = ActionBuilder(browser, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    tile1 = browser.find_element(By.CSS_SELECTOR, '#board .tile[data-tile="1"]')
    touch.pointer_action.move_to(tile1).pointer_down().move_by(0, 40).move_by(0, 40).pointer_up()
    touch.perform()  # a swipe down, from a tile off the blank's lines: the tile above the blank slides down
    wait_for(browser, lambda: tiles(browser) == "1 2 3 4 0 6 7 5 8", timeout=5)
    open_page(browser, server, "#3x3/1.2.3.0.4.5.7.8.6", DESKTOP)
    mouse = ActionBuilder(browser)
    tile5 = browser.find_element(By.CSS_SELECTOR, '#board .tile[data-tile="5"]')
    cell = tile5.size["width"]
    mouse.pointer_action.move_to(tile5).pointer_down().move_by(-cell // 3, 0).move_by(-cell // 3, 0).pointer_up()
    mouse.perform()  # 5 dragged to the left, past a third of a cell: 4 and 5 slide left (its whole line)
    wait_for(browser, lambda: tiles(browser) == "1 2 3 4 5 0 7 8 6", timeout=5)
    mouse.pointer_action.move_to(tile5).pointer_down().pause(0.3).move_by(cell // 5, 0).pause(0.3).pointer_up()
    mouse.perform()  # a short slow drag that is let go: the tile goes back
    assert tiles(browser) == "1 2 3 4 5 0 7 8 6"
    browser.find_element(By.ID, "undo").click()
    assert tiles(browser) == "1 2 3 4 0 5 7 8 6" and text(browser, "moves") == "1"
    browser.find_element(By.ID, "redo").click()
    assert tiles(browser) == "1 2 3 4 5 0 7 8 6" and text(browser, "moves") == "2"
    press(browser, "U")
    assert tiles(browser) == SOLVED_3X3
    assert "solved" in (browser.find_element(By.ID, "board").get_attribute("class") or "")


def _average(times: list[int]) -> float:
    """The WCA's average of 5 (regulation 9f8): the best and the worst left out, the mean of the rest."""
    return sum(sorted(times)[1:-1]) / (len(times) - 2)


def test_timed_solves_update_the_timer_moves_and_the_session_averages(server: Server, browser):
    open_page(browser, server, "", DESKTOP)
    browser.execute_script("localStorage.clear()")
    Select(browser.find_element(By.ID, "rows")).select_by_value("3")
    Select(browser.find_element(By.ID, "cols")).select_by_value("3")
    for count in range(1, 6):
        browser.find_element(By.ID, "scramble").click() if count > 1 else None
        wait_for(browser, lambda: board_of(browser).shape == (3, 3) and not board_of(browser).is_goal()
                 and text(browser, "moves") == "0")
        board = board_of(browser)
        letters = server.solve({"position": " ".join(map(str, board.tiles)), "shape": "3x3"})["result"]["letters"]
        assert text(browser, "timer") == "0.000"
        press(browser, letters[0])
        assert text(browser, "moves") == "1"
        press(browser, letters[1:])
        wait_for(browser, lambda: "Solved in" in text(browser, "notice"), timeout=10)
        solves = json.loads(browser.execute_script("return localStorage.getItem('npuzzle.solves.v1')"))
        assert len(solves) == count and solves[-1]["solution"] == letters and solves[-1]["kind"] == "random"
        assert solves[-1]["scramble"] == ".".join(map(str, board.tiles))
        last = solves[-1]
        assert text(browser, "moves") == str(len(letters)) and last["moves"] == len(letters)
        assert text(browser, "timer") == f"{last['time'] / 1000:.3f}"
        assert text(browser, "tps") == f"{len(letters) / (last['time'] / 1000):.2f}"
        assert browser.find_element(By.CSS_SELECTOR, "#avg-single td").text == f"{last['time'] / 1000:.3f}"
        assert len(browser.find_elements(By.CSS_SELECTOR, "#solves li")) == count
        # the line moves (MTM): a run of one letter is one line slid
        runs = len(re.sub(r"\d", "", format_letters(letters)))
        assert text(browser, "mtm") == str(runs) and last["mtm"] == runs and f"({runs} line)" in text(browser, "notice")
        # honest: the first solve of a size is no "new best", a later one only if it beats them all
        earlier = [s["time"] for s in solves[:-1]]
        assert ("a new best!" in text(browser, "notice")) == (bool(earlier) and last["time"] < min(earlier))
        assert ("your first 3x3 solve" in text(browser, "notice")) == (count == 1)
        assert text(browser, "session-size") == f"3x3 · {count} random-state solve{'s' if count > 1 else ''}"
    times = [s["time"] for s in solves]
    ao5 = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#avg-ao5 td")]
    assert ao5[0] == f"{_average(times) / 1000:.3f}"
    assert ao5[2] == f"{_average([s['moves'] for s in solves]):.1f}"  # moves and moves/s are averaged too
    assert ao5[3] == f"{_average([s['tps'] for s in solves]):.2f}"
    assert browser.find_element(By.CSS_SELECTOR, "#avg-ao12 td").text == "–"
    best = browser.find_elements(By.CSS_SELECTOR, "#avg-single td")[1].text
    assert best == f"{min(times) / 1000:.3f}"
    # the last solve is analysed at once: the optimal length is the solver's
    wait_for(browser, lambda: "Your solution:" in text(browser, "an-summary"))
    assert f"optimal: {len(letters)}" in text(browser, "an-summary")
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []  # every module loaded, nothing thrown


#: The widest averages a session shows: times over a minute, averages of moves over 100.
WIDE_SOLVES = [{"size": "3x3", "goal": "standard", "kind": "random", "date": "2026-11-26T00:00:00Z", "time": 62345,
                "moves": 123, "tps": 19.728, "undos": 0, "scramble": "1.2.3.4.5.6.0.7.8", "solution": "LL" * 61 + "R",
                "times": []}] * 12
SOLVES = [  # kept by an earlier visit: three random-state 3x3 solves and a random walk's
    {"size": "3x3", "goal": "standard", "kind": "random", "date": "2026-11-26T00:00:00Z", "time": t, "moves": 2,
     "tps": 2 / t * 1000, "undos": 0, "scramble": "1.2.3.4.5.6.0.7.8", "solution": "LL", "times": [0, t]}
    for t in (4000, 2500, 3000)] + [
    {"size": "3x3", "goal": "standard", "kind": "walk 10", "date": "2026-11-26T00:01:00Z", "time": 1000, "moves": 2,
     "tps": 2.0, "undos": 0, "scramble": "1.2.3.4.5.6.0.7.8", "solution": "LL", "times": [0, 1000]}]
#: Click an export button and catch its download: the file's name and text.
DOWNLOAD = """
    const done = arguments[1], click = HTMLAnchorElement.prototype.click, url = URL.createObjectURL;
    let blob = null;
    URL.createObjectURL = (b) => { blob = b; return url(b); };
    HTMLAnchorElement.prototype.click = function () {
      HTMLAnchorElement.prototype.click = click; URL.createObjectURL = url;
      blob.text().then(t => done([this.download, t]));
    };
    document.getElementById(arguments[0]).click();"""


def test_the_session_is_kept_shown_and_exported(server: Server, browser):
    open_page(browser, server, "#3x3/1.2.3.4.5.6.0.7.8")
    browser.execute_script("localStorage.clear(); localStorage.setItem('npuzzle.solves.v1', arguments[0])",
                           json.dumps(SOLVES))
    open_page(browser, server, "#3x3/1.2.3.4.5.6.0.7.8")
    current, best, moves, tps = (td.text for td in browser.find_elements(By.CSS_SELECTOR, "#avg-single td"))
    assert (current, best) == ("3.000", "2.500")  # the walk's 1.000 is no random-state single
    assert (moves, tps) == ("2", f"{2 / 3:.2f}")  # the last random-state single's moves and moves/s
    assert text(browser, "session-size") == "3x3 · 3 random-state solves"
    assert [li.text.split(" s ")[0] for li in browser.find_elements(By.CSS_SELECTOR, "#solves li")] == [
        "1.000", "3.000", "2.500", "4.000"]
    name, csv = browser.execute_async_script(DOWNLOAD, "export-csv")
    lines = csv.splitlines()
    assert name == "npuzzle-solves.csv" and len(lines) == 5
    assert lines[0] == "size,goal,kind,date,time_ms,dnf,moves,mtm,tps,undos,scramble,solution,times_ms"
    assert lines[2] == "3x3,standard,random,2026-11-26T00:00:00Z,2500,0,2,1,0.8,0,1.2.3.4.5.6.0.7.8,LL,0 2500"
    name, exported = browser.execute_async_script(DOWNLOAD, "export-json")
    assert name == "npuzzle-solves.json" and json.loads(exported) == SOLVES
    browser.find_elements(By.CSS_SELECTOR, "#solves li button")[1].click()  # replay the 3.000 s solve
    assert text(browser, "steps") == "2" and text(browser, "player-title") == "Solve of 3.000 s"
    browser.execute_script("localStorage.clear()")


def test_inspection_and_the_arrow_keys_moving_the_blank(server: Server, browser):
    open_page(browser, server, "#3x3/1.2.3.4.5.6.7.0.8")
    for select, value in (("inspection", "15"), ("keys", "blank")):
        Select(browser.find_element(By.ID, select)).select_by_value(value)
    browser.get(f"{server.url}/#3x3/1.2.3.4.0.6.7.5.8")  # the settings are kept
    wait_for(browser, lambda: tiles(browser) == "1 2 3 4 0 6 7 5 8")
    wait_for(browser, lambda: re.fullmatch(r"Inspection: 1\d s left, or move to start\.", text(browser, "phase")))
    press(browser, "D")  # the blank moves down: the tile below it slides up
    assert tiles(browser) == "1 2 3 4 5 6 7 0 8" and text(browser, "phase") == ""
    wait_for(browser, lambda: text(browser, "timer") != "0.000", timeout=5)
    press(browser, "R")
    assert tiles(browser) == SOLVED_3X3 and "Solved in" in text(browser, "notice")
    browser.execute_script("localStorage.clear()")


def test_the_analysis_of_a_known_solve_lists_its_mistakes(server: Server, browser):
    # From 1 2 3/4 0 5/7 8 6 the goal is two moves away (L U). R slides 4 right, away from its
    # home (distance 3); L brings it back (2), L (1), U (0): one mistake, the first move, where L
    # was better. The same moves named by the blank's way (L R R D) give the same analysis.
    open_page(browser, server, "", PHONE)
    for moves, convention in (("RLLU", "tile"), ("L R2 D", "blank")):
        position = browser.find_element(By.ID, "an-position")
        position.clear()
        position.send_keys("1 2 3/4 0 5/7 8 6")
        browser.find_element(By.ID, "an-moves").clear()
        browser.find_element(By.ID, "an-moves").send_keys(moves)
        Select(browser.find_element(By.ID, "an-convention")).select_by_value(convention)
        browser.execute_script("document.getElementById('an-summary').textContent = ''")
        browser.find_element(By.ID, "analyse").click()
        wait_for(browser, lambda: text(browser, "an-summary") != "")
        assert text(browser, "an-summary").startswith("Your solution: 4 moves; optimal: 2 — 2 moves over.")
        mistakes = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#an-mistakes li")]
        assert mistakes == ["move 1: R, distance 2 → 3; better: L"]
        points = browser.find_element(By.CSS_SELECTOR, "#an-plot polyline.dist").get_attribute("points") or ""
        assert len(points.split()) == 5
    browser.find_element(By.CSS_SELECTOR, "#an-mistakes button").click()  # the board before the mistake
    assert tiles(browser) == "1 2 3 4 0 5 7 8 6" and text(browser, "step") == "0"
    browser.find_element(By.ID, "an-all").click()
    wait_for(browser, lambda: "optimal solution" in text(browser, "an-extra"))
    assert text(browser, "an-extra").startswith("1 optimal solution of 2 moves") and "LU" in text(browser, "an-extra")
    browser.find_element(By.ID, "an-moves").clear()
    browser.find_element(By.ID, "an-moves").send_keys("RR")
    browser.find_element(By.ID, "analyse").click()
    wait_for(browser, lambda: "move 2" in text(browser, "an-message"))  # said beside the button


def test_a_share_link_follows_the_board_and_round_trips(server: Server, browser):
    open_page(browser, server, "#3x3/8.6.7.2.5.4.3.0.1", DESKTOP)
    press(browser, "LDR")
    played = tiles(browser)
    assert played == " ".join(map(str, Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1)).apply("LDR").tiles))
    wait_for(browser, lambda: str(browser.execute_script("return location.hash")).startswith(
        "#3x3/8.6.7.2.5.4.3.0.1/LDR/t="))
    link = browser.find_element(By.ID, "share-url").get_attribute("value") or ""
    assert link.startswith(server.url + "/#3x3/8.6.7.2.5.4.3.0.1/LDR/t=")
    open_page(browser, server, link[len(server.url) + 1:], PHONE)
    assert tiles(browser) == "8 6 7 2 5 4 3 0 1" and text(browser, "steps") == "3"
    browser.find_element(By.ID, "forward").click()
    assert text(browser, "step") == "1"
    browser.find_element(By.ID, "last").click()
    assert tiles(browser) == played and text(browser, "step") == "3"
    deltas = [int(x) for x in link.split("/t=")[1].split(".")]  # each move's time after the one before
    assert len(deltas) == 3 and text(browser, "timer") == f"{sum(deltas) / 1000:.3f}"
    assert browser.execute_script("return document.getElementById('speed').options[0].disabled") is False
    browser.find_element(By.ID, "first").click()
    Select(browser.find_element(By.ID, "speed")).select_by_value("60")
    browser.find_element(By.ID, "play").click()
    wait_for(browser, lambda: text(browser, "step") == "3", timeout=10)
    assert tiles(browser) == played
    # links of earlier versions keep opening, in this version's form
    open_page(browser, server, "#p=1,2,3/4,0,5/7,8,6&s=LU", PHONE)
    assert tiles(browser) == "1 2 3 4 0 5 7 8 6" and text(browser, "steps") == "2"
    assert browser.execute_script("return location.hash") == "#3x3/1.2.3.4.0.5.7.8.6/LU"


@pytest.mark.parametrize(("fragment", "words"), [
    ("#p=garbage", "cannot be opened"),
    ("#4x4/1.2.3", "a 4x4 position is 16 numbers"),
    ("#12x3/1.2", "boards of 2x2 to 10x10"),
    ("#3x3/1.2.3.4.5.6.8.7.0", "cannot reach the standard goal"),
    ("#3x3/1.2.3.4.5.6.7.8.8", "tile 8 is twice"),
    ("#banana", "no board size"),
    ("#3x3/1.2.3.4.5.6.7.8.0/%E0%A4%A", "are no moves"),
    ("#3x3/1.2.3.4.5.6.7.0.8/LLU", "move 2 of the link (L) has no tile to slide"),
])
def test_a_bad_link_says_what_is_wrong_and_keeps_a_playable_board(server: Server, browser, fragment, words):
    open_page(browser, server, fragment, PHONE)
    wait_for(browser, lambda: words in text(browser, "notice"))
    assert "error" in (browser.find_element(By.ID, "notice").get_attribute("class") or "")
    wait_for(browser, lambda: is_a_board(browser) and tiles(browser) != "")
    before = board_of(browser)
    letter = next(x for x in "LURD" if _legal(before, x))
    press(browser, letter)
    assert tiles(browser) == " ".join(map(str, before.apply(letter).tiles))


def test_a_shared_8_puzzle_is_solved_and_played_to_the_goal(server: Server, browser):
    open_page(browser, server, "#p=8,6,7/2,5,4/3,0,1")
    assert tiles(browser) == "8 6 7 2 5 4 3 0 1"
    assert browser.find_element(By.ID, "board").get_attribute("data-shape") == "3x3"
    wait_for(browser, lambda: "Manhattan distance 21, linear conflict 23" in text(browser, "bounds"))
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "outcome") == "31 moves, optimal")
    # IDA* (no table: wd+id), or the 3x3 distance table once an analysis has made it
    assert re.match(r"(idastar, wd\+id|bfs-table, table): ", text(browser, "how")), text(browser, "how")
    assert text(browser, "steps") == "31" and tiles(browser) == "8 6 7 2 5 4 3 0 1"
    Select(browser.find_element(By.ID, "speed")).select_by_value("60")
    browser.find_element(By.ID, "play").click()
    wait_for(browser, lambda: text(browser, "step") == "31")
    assert tiles(browser) == SOLVED_3X3
    assert "solved" in (browser.find_element(By.ID, "board").get_attribute("class") or "")
    browser.find_element(By.ID, "back").click()
    assert text(browser, "step") == "30" and tiles(browser) != SOLVED_3X3
    browser.find_element(By.ID, "forward").click()
    assert text(browser, "step") == "31" and tiles(browser) == SOLVED_3X3


def test_a_walk_scrambled_4x4_moved_by_keyboard_is_solved_from_there(server: Server, browser):
    open_page(browser, server)
    Select(browser.find_element(By.ID, "walk")).select_by_value("30")
    browser.find_element(By.ID, "scramble").click()
    wait_for(browser, lambda: "Random walk of 30 moves" in text(browser, "notice"))
    board, letters_played = board_of(browser), ""
    for _ in range(2):
        letter = next(x for x in "LURD" if _legal(board, x))
        press(browser, letter)
        board, letters_played = board.apply(letter), letters_played + letter
    assert tiles(browser) == " ".join(map(str, board.tiles))
    assert text(browser, "moves") == "2" and re.fullmatch(r"\d+\.\d\d\d", text(browser, "timer"))
    browser.execute_script("localStorage.removeItem('npuzzle.solves.v1')")
    browser.find_element(By.ID, "solve").click()  # mid-attempt: the solver asks first, then keeps a DNF
    alert = browser.switch_to.alert
    assert "DNF" in alert.text
    alert.accept()
    solves = json.loads(browser.execute_script("return localStorage.getItem('npuzzle.solves.v1')"))
    assert [(s["dnf"], s["moves"], s["kind"], s["solution"]) for s in solves] == [(True, 2, "walk 30", letters_played)]
    assert text(browser, "notice").startswith("DNF after ") and "2 moves" in text(browser, "notice")
    assert browser.find_element(By.CSS_SELECTOR, "#solves li").text.startswith("DNF (")
    wait_for(browser, lambda: re.fullmatch(r"\d+ moves, optimal", text(browser, "outcome")) is not None)
    letters = browser.find_element(By.ID, "letters").get_attribute("title") or ""
    assert board.apply(letters).is_goal() and text(browser, "steps") == str(len(letters))
    assert tiles(browser) == " ".join(map(str, board.tiles))  # the replay starts from the board as it was
    Select(browser.find_element(By.ID, "walk")).select_by_value("")


def test_a_tap_slides_the_tiles_of_its_line_and_reset_goes_back(server: Server, browser):
    open_page(browser, server, "#3x3/1.2.3.4.5.6.0.7.8")
    browser.find_element(By.CSS_SELECTOR, '#board .tile[data-tile="8"]').click()  # slides 7 and 8 left
    assert tiles(browser) == SOLVED_3X3 and text(browser, "moves") == "2" and text(browser, "mtm") == "1"
    browser.find_element(By.ID, "reset").click()
    assert tiles(browser) == "1 2 3 4 5 6 0 7 8" and text(browser, "moves") == "0"
    open_page(browser, server, "#2x3/1.0.2.3.4.5/goal=blank-first")  # a link keeps its goal
    assert browser.find_element(By.ID, "goal").get_attribute("value") == "blank-first"
    browser.find_element(By.CSS_SELECTOR, '#board .tile[data-tile="1"]').click()
    assert tiles(browser) == "0 1 2 3 4 5"
    assert "solved" in (browser.find_element(By.ID, "board").get_attribute("class") or "")


def test_a_non_square_board_typed_in_the_text_box_is_solved(server: Server, browser):
    open_page(browser, server)
    box = browser.find_element(By.ID, "position-text")
    box.send_keys("4 1 2/5 0 3")
    browser.find_element(By.ID, "load").click()
    wait_for(browser, lambda: tiles(browser) == "4 1 2 5 0 3")
    assert browser.find_element(By.ID, "board").get_attribute("data-shape") == "2x3"
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "outcome") == "5 moves, optimal")
    box.clear()
    box.send_keys("1 2 3/4 5 6/7 8 8")
    browser.find_element(By.ID, "load").click()
    wait_for(browser, lambda: "duplicate tile 8" in text(browser, "message"))  # beside the Load button


def test_after_any_drop_down_the_arrow_keys_move_tiles_again(server: Server, browser):
    # A select that kept the focus took the arrow keys: left on the columns' select made the board
    # narrower (a new scramble) instead of sliding a tile. Now every choice gives the board the focus.
    open_page(browser, server, "#3x3/1.2.3.4.0.5.7.8.6")
    for select, value in (("rows", "4"), ("cols", "4"), ("scheme", "rows"), ("keys", "tile"), ("control", "press"),
                          ("method", "idastar"), ("an-convention", "blank"), ("slide", "0"), ("an-convention", "tile")):
        Select(browser.find_element(By.ID, select)).select_by_value(value)
        shape = (4, 3 if select == "rows" else 4)
        wait_for(browser, lambda: board_of(browser).shape == shape and not board_of(browser).is_goal())  # noqa: B023
        assert browser.switch_to.active_element.get_attribute("id") == "board", select
        before, moves = board_of(browser), int(text(browser, "moves"))
        letter = next(x for x in "LURD" if _legal(before, x))
        browser.switch_to.active_element.send_keys(KEYS[letter])
        assert board_of(browser) == before.apply(letter), select
        assert text(browser, "moves") == str(moves + 1)
    Select(browser.find_element(By.ID, "scheme")).select_by_value("plain")
    Select(browser.find_element(By.ID, "method")).select_by_value("auto")
    browser.execute_script("localStorage.clear()")


def test_the_replay_buttons_draw_their_icons_inline(server: Server, browser):
    open_page(browser, server, "#3x3/1.2.3.4.0.5.7.8.6/LU", PHONE)
    icons = browser.execute_script("""
        return [...document.querySelectorAll('#player button')].map(b => {
          const use = b.querySelector('svg use'), id = use ? use.getAttribute('href').slice(1) : '';
          const path = id && document.querySelector('symbol#' + id + ' path');
          return [b.id, b.textContent.trim(), Boolean(path && path.getAttribute('d')),
                  b.querySelector('svg').getBoundingClientRect().width];
        });""")
    assert [(i, t) for i, t, _, _ in icons] == [
        ("first", ""), ("back", ""), ("play", "play"), ("forward", ""), ("last", "")]
    assert all(drawn and width >= 16 for _, _, drawn, width in icons)  # a shape drawn, at a visible size
    Select(browser.find_element(By.ID, "speed")).select_by_value("2")
    browser.find_element(By.ID, "play").click()
    play = browser.find_element(By.ID, "play")
    assert play.text == "pause" and play.find_element(By.TAG_NAME, "use").get_attribute("href") == "#i-pause"
    play.click()
    assert play.text == "play" and play.find_element(By.TAG_NAME, "use").get_attribute("href") == "#i-play"


def _solve_and_analyse(browser) -> None:
    """The solver's answer and an analysis on the Solver and Analysis cards (of 1 2 3/4 0 5/7 8 6)."""
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "outcome") == "2 moves, optimal")
    assert text(browser, "how") != ""
    for box, value in (("an-position", "1 2 3/4 0 5/7 8 6"), ("an-moves", "LU")):
        browser.find_element(By.ID, box).clear()
        browser.find_element(By.ID, box).send_keys(value)
    browser.find_element(By.ID, "analyse").click()
    wait_for(browser, lambda: text(browser, "an-summary").startswith("Your solution: 2 moves; optimal: 2"))


def test_the_solver_and_analysis_cards_follow_the_board(server: Server, browser):
    open_page(browser, server, "#3x3/1.2.3.4.0.5.7.8.6")
    _solve_and_analyse(browser)
    Select(browser.find_element(By.ID, "cols")).select_by_value("4")  # another size: the cards forget the 3x3
    wait_for(browser, lambda: board_of(browser).shape == (3, 4))
    assert [text(browser, x) for x in ("outcome", "how", "status", "an-summary", "result")] == [""] * 5
    assert browser.find_element(By.ID, "an-result").get_attribute("hidden") is not None
    wait_for(browser, lambda: not board_of(browser).is_goal()  # the bounds are the new board's
             and f"Manhattan distance {board_of(browser).manhattan()}," in text(browser, "bounds"))
    open_page(browser, server, "#3x3/1.2.3.4.0.5.7.8.6")
    _solve_and_analyse(browser)
    browser.find_element(By.ID, "scramble").click()  # a new board of the same size: the solver's answer goes
    wait_for(browser, lambda: browser.find_element(By.ID, "player").get_attribute("hidden") is not None, timeout=30)
    assert text(browser, "outcome") == "" and text(browser, "how") == ""
    assert text(browser, "an-summary").startswith("Your solution: 2 moves")  # an analysis of this size stays


def test_on_a_phone_the_result_is_beside_the_board(server: Server, browser):
    open_page(browser, server, "#3x3/1.2.3.4.0.5.7.8.6", PHONE)
    press(browser, "LU")  # a timed attempt, solved: its analysis in a line under the board
    wait_for(browser, lambda: text(browser, "result").startswith("Your solution: 2 moves; optimal: 2"))
    gap = browser.execute_script("""
        const board = document.getElementById('board').getBoundingClientRect();
        return document.getElementById('result').getBoundingClientRect().top - board.bottom;""")
    assert 0 <= gap < 160
    open_page(browser, server, "#3x3/1.2.3.4.0.5.7.8.6", PHONE)
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "result").startswith("Solver: 2 moves, optimal"))
    assert browser.execute_script("""
        const r = document.getElementById('result').getBoundingClientRect();
        return r.top - document.getElementById('board').getBoundingClientRect().bottom;""") < 160
    browser.execute_script("localStorage.clear()")


def test_the_solver_asked_mid_attempt_can_be_refused(server: Server, browser):
    open_page(browser, server, "#3x3/1.2.3.4.0.5.7.8.6")
    browser.execute_script("localStorage.clear()")
    press(browser, "R")  # the timer runs
    browser.find_element(By.ID, "solve").click()
    browser.switch_to.alert.dismiss()  # no: the attempt goes on, nothing is kept, nothing solved
    assert browser.switch_to.active_element.get_attribute("id") == "board"
    assert text(browser, "outcome") == ""
    assert browser.execute_script("return localStorage.getItem('npuzzle.solves.v1')") is None
    press(browser, "LLU")
    wait_for(browser, lambda: "Solved in" in text(browser, "notice"), timeout=10)


def test_hover_control_slides_a_line_under_the_mouse(server: Server, browser):
    from selenium.webdriver.common.action_chains import ActionChains

    open_page(browser, server, "#3x3/1.2.3.4.5.6.0.7.8")
    tile8 = '#board .tile[data-tile="8"]'
    browser.find_element(By.CSS_SELECTOR, '#board .tile[data-tile="5"]').click()  # off the blank's lines: no move
    assert text(browser, "moves") == "0"
    ActionChains(browser).move_to_element(browser.find_element(By.ID, "notice")).perform()
    ActionChains(browser).move_to_element(browser.find_element(By.CSS_SELECTOR, tile8)).perform()
    assert text(browser, "moves") == "0"  # passing over a tile does nothing, unless asked for
    Select(browser.find_element(By.ID, "control")).select_by_value("hover")
    ActionChains(browser).move_to_element(browser.find_element(By.ID, "notice")).perform()
    ActionChains(browser).move_to_element(browser.find_element(By.CSS_SELECTOR, tile8)).perform()
    wait_for(browser, lambda: tiles(browser) == SOLVED_3X3, timeout=5)
    assert text(browser, "moves") == "2" and text(browser, "mtm") == "1"
    Select(browser.find_element(By.ID, "control")).select_by_value("press")
    browser.execute_script("localStorage.clear()")


def _legal(board: Board, letter: str) -> bool:
    try:
        board.apply(letter)
    except IllegalMoveError:
        return False
    return True
