"""The web page of ``npuzzle serve`` driven in headless Chromium (Selenium): a shared link opened,
solved and played to the end; a scrambled 4x4 moved with the keyboard and solved; the heuristic
value, Reset and a shared solution. Skipped, with the reason, only where no browser can run
(install it with ``apt-get install -y chromium chromium-driver``, as ``.ci/run`` does)."""

from __future__ import annotations

import re
import shutil

import pytest

pytest.importorskip("starlette", reason="the web extra (pip install 'npuzzle[web]') is not installed")
pytest.importorskip("uvicorn", reason="the web extra (pip install 'npuzzle[web]') is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from web_server import Server, running_server  # noqa: E402

from npuzzle import Board  # noqa: E402

#: Where Debian's packages put the browser and its driver (else found on the PATH).
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")
#: The longest wait for the page (a first solve may compile the kernels).
WAIT = 300


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    # An empty table store of its own, so that the heuristic the page names does not depend on
    # which tables earlier tests built (with none, a 3x3 is solved with wd+id).
    store = str(tmp_path_factory.mktemp("web-page-store"))
    with running_server("--workers", "2", "--time-limit", "600", store=store) as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("no browser: chromium and chromedriver are not installed "
                    "(apt-get install -y chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1200,1000", "--no-first-run", "--disable-extensions"):
        options.add_argument(flag)
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except Exception as e:  # a browser that cannot start here (no display libraries, ...)
        pytest.skip(f"no browser: headless Chromium does not start ({type(e).__name__}: {str(e)[:200]})")
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver, condition, timeout: float = WAIT):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition())


def tiles(driver) -> str:
    return driver.find_element(By.ID, "board").get_attribute("data-tiles") or ""


def text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def open_page(driver, server: Server, fragment: str = "") -> None:
    driver.get("about:blank")
    driver.get(f"{server.url}/{fragment}")
    wait_for(driver, lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def test_a_shared_8_puzzle_is_solved_and_played_to_the_goal(server: Server, browser):
    open_page(browser, server, "#p=8,6,7/2,5,4/3,0,1")
    assert tiles(browser) == "8 6 7 2 5 4 3 0 1"
    assert browser.find_element(By.ID, "board").get_attribute("data-shape") == "3x3"
    wait_for(browser, lambda: "Manhattan distance 21, linear conflict 23" in text(browser, "bounds"))
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "outcome") == "31 moves, optimal")
    assert text(browser, "how").startswith("idastar, wd+id: ")
    assert text(browser, "steps") == "31" and tiles(browser) == "8 6 7 2 5 4 3 0 1"
    browser.execute_script("const s = document.getElementById('speed'); s.value = s.max;")
    browser.find_element(By.ID, "play").click()
    wait_for(browser, lambda: text(browser, "step") == "31")
    assert tiles(browser) == "1 2 3 4 5 6 7 8 0"
    assert "solved" in browser.find_element(By.ID, "board").get_attribute("class")
    wait_for(browser, lambda: text(browser, "bounds").startswith("solvable; Manhattan distance 0"))
    browser.find_element(By.ID, "back").click()
    assert text(browser, "step") == "30" and tiles(browser) != "1 2 3 4 5 6 7 8 0"
    browser.find_element(By.ID, "forward").click()
    assert text(browser, "step") == "31" and tiles(browser) == "1 2 3 4 5 6 7 8 0"


def test_a_shared_link_carries_the_solution(server: Server, browser):
    open_page(browser, server, "#p=1,2,3/4,0,5/7,8,6")
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: text(browser, "outcome") == "2 moves, optimal")
    browser.find_element(By.ID, "share").click()
    link = browser.find_element(By.ID, "share-url").get_attribute("value")
    assert link.startswith(server.url) and "p=1%2C2%2C3%2F4%2C0%2C5%2F7%2C8%2C6" in link and "s=LU" in link
    open_page(browser, server, link[len(server.url) + 1:])
    assert tiles(browser) == "1 2 3 4 0 5 7 8 6" and text(browser, "steps") == "2"
    browser.find_element(By.ID, "forward").click()
    browser.find_element(By.ID, "forward").click()
    assert tiles(browser) == "1 2 3 4 5 6 7 8 0"


def test_a_scrambled_4x4_moved_by_keyboard_is_solved(server: Server, browser):
    open_page(browser, server)
    Select(browser.find_element(By.ID, "rows")).select_by_value("4")
    Select(browser.find_element(By.ID, "cols")).select_by_value("4")
    goal = " ".join(map(str, [*range(1, 16), 0]))
    wait_for(browser, lambda: tiles(browser) == goal)
    Select(browser.find_element(By.ID, "walk")).select_by_value("")  # a uniformly random position
    browser.find_element(By.ID, "scramble").click()
    wait_for(browser, lambda: tiles(browser) != goal)
    board = Board(4, 4, tuple(int(t) for t in tiles(browser).split()))
    keys = {"L": Keys.ARROW_LEFT, "R": Keys.ARROW_RIGHT, "U": Keys.ARROW_UP, "D": Keys.ARROW_DOWN}
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(2):
        letter = next(x for x in "LURD" if _legal(board, x))
        body.send_keys(keys[letter])
        board = board.apply(letter)
    assert tiles(browser) == " ".join(map(str, board.tiles))
    assert text(browser, "moves") == "2" and re.fullmatch(r"\d+:\d\d\.\d", text(browser, "timer"))
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda: re.fullmatch(r"\d+ moves, optimal", text(browser, "outcome")) is not None)
    letters = text(browser, "letters")
    assert board.apply(letters).is_goal() and text(browser, "steps") == str(len(letters))
    assert tiles(browser) == " ".join(map(str, board.tiles))  # the animation starts from the solved board


def test_a_click_slides_tiles_and_reset_goes_back(server: Server, browser):
    open_page(browser, server, "#p=1,2,3/4,5,6/7,8,0")
    browser.find_element(By.CSS_SELECTOR, '#board .tile[data-tile="7"]').click()  # slides 7 and 8 right
    assert tiles(browser) == "1 2 3 4 5 6 0 7 8" and text(browser, "moves") == "2"
    browser.find_element(By.ID, "reset").click()
    assert tiles(browser) == "1 2 3 4 5 6 7 8 0" and text(browser, "moves") == "0"


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
    wait_for(browser, lambda: "duplicate tile 8" in text(browser, "message"))


def _legal(board: Board, letter: str) -> bool:
    try:
        board.apply(letter)
    except Exception:
        return False
    return True
