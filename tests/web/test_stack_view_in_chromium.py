"""The stack view in a real headless Chromium, against a running ``keel all-in-one``.

A stack of 50 resources is created while the page is open on it; the page must show
every node reach COMPLETE from the watch stream, and the failure reason on a failed
node. Screenshots are kept in ``test-artifacts/`` at the top of the tree.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.cli.test_openstack_cli import Cli, all_in_one

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = Path(__file__).parents[2] / "test-artifacts"


def fifty_resources() -> dict:
    """Ten chains of five resources each, the first of each chain slow enough to watch."""
    resources: dict[str, dict] = {}
    for chain in range(10):
        for link in range(5):
            name = f"c{chain}-r{link}"
            resource: dict = {"type": "OS::Heat::None"}
            if link == 0:
                resource = {
                    "type": "OS::Heat::TestResource",
                    "properties": {"value": name, "action_wait_secs": {"create": 3}},
                }
            else:
                resource["depends_on"] = [f"c{chain}-r{link - 1}"]
            resources[name] = resource
    return {"heat_template_version": "2018-08-31", "resources": resources}


FAILING = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "fine": {"type": "OS::Heat::None"},
        "broken": {
            "type": "OS::Heat::TestResource",
            "properties": {"fail": True, "action_wait_secs": {"create": 2}},
            "depends_on": ["fine"],
        },
    },
}


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    with all_in_one(tmp_path_factory.mktemp("stack-view")) as running:
        yield running


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    assert shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER), ".ci/run installs chromium"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1600,1000",
        f"--user-data-dir={tmp_path / 'chromium'}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def api(cli: Cli) -> str:
    return cli.environment["OS_ENDPOINT"]


def page(cli: Cli, stack_name: str) -> str:
    origin = api(cli).split("/v1/", 1)[0]
    return f"{origin}/stack-view/admin/#stack={stack_name}"


def create(cli: Cli, name: str, template: dict) -> None:
    answer = requests.post(
        f"{api(cli)}/stacks", json={"stack_name": name, "template": template}, timeout=60
    )
    assert answer.status_code == 201, answer.text


def nodes(browser: webdriver.Chrome, state: str = "") -> list:
    return browser.find_elements(By.CSS_SELECTOR, f"#graph g.node{'.' + state if state else ''}")


def screenshot(browser: webdriver.Chrome, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / name))


def test_every_node_of_a_50_resource_stack_reaches_complete(
    cli: Cli, browser: webdriver.Chrome
) -> None:
    create(cli, "fifty", fifty_resources())
    browser.get(page(cli, "fifty"))
    seen_in_progress = 0

    def all_complete(driver: webdriver.Chrome) -> bool:
        nonlocal seen_in_progress
        seen_in_progress = max(seen_in_progress, len(nodes(driver, "in-progress")))
        return len(nodes(driver, "done")) == 50

    WebDriverWait(browser, 90, poll_frequency=0.2).until(all_complete)
    WebDriverWait(browser, 30).until(
        lambda driver: driver.find_element(By.ID, "stack-status").text == "CREATE_COMPLETE"
    )
    screenshot(browser, "stack-view-complete.png")

    assert len(nodes(browser)) == 50
    assert seen_in_progress > 0, "the page never showed a resource in progress"
    assert browser.find_element(By.ID, "counts").text == "50/50 done, 0 in progress, 0 failed"
    events = browser.find_elements(By.CSS_SELECTOR, "#events li")
    assert sum("CREATE_COMPLETE" in event.text for event in events) >= 50


def test_a_failed_node_shows_its_reason(cli: Cli, browser: webdriver.Chrome) -> None:
    create(cli, "failing", FAILING)
    browser.get(page(cli, "failing"))

    WebDriverWait(browser, 60).until(lambda driver: len(nodes(driver, "failed")) == 1)
    WebDriverWait(browser, 30).until(
        lambda driver: driver.find_element(By.ID, "stack-status").text == "CREATE_FAILED"
    )
    screenshot(browser, "stack-view-failed.png")

    failed = nodes(browser, "failed")[0]
    assert failed.get_attribute("data-name") == "broken"
    assert "Test Resource failed" in failed.find_element(By.CSS_SELECTOR, "text.reason").text
    failures = browser.find_element(By.ID, "failures").text
    assert "broken: ValueError: resources.broken: Test Resource failed broken" in failures


def test_the_list_shows_the_projects_stacks_and_opens_one(
    cli: Cli, browser: webdriver.Chrome
) -> None:
    create(cli, "listed", FAILING | {"resources": {"only": {"type": "OS::Heat::None"}}})
    origin = api(cli).split("/v1/", 1)[0]
    browser.get(f"{origin}/stack-view/admin/")

    row = WebDriverWait(browser, 30).until(
        lambda driver: driver.find_element(By.CSS_SELECTOR, '#stacks tr[data-name="listed"]')
    )
    row.click()
    WebDriverWait(browser, 30).until(lambda driver: len(nodes(driver, "done")) == 1)
    time.sleep(0.2)

    assert browser.current_url.endswith("#stack=listed")
    assert browser.find_element(By.ID, "stack-name").text == "listed"


def test_a_nested_stack_opens_on_a_click(cli: Cli, browser: webdriver.Chrome) -> None:
    inner = "heat_template_version: 2018-08-31\nresources:\n  member: {type: OS::Heat::None}\n"
    body = {
        "stack_name": "nesting",
        "template": {
            "heat_template_version": "2018-08-31",
            "resources": {"group": {"type": "inner.yaml"}},
        },
        "files": {"inner.yaml": inner},
    }
    assert requests.post(f"{api(cli)}/stacks", json=body, timeout=60).status_code == 201
    browser.get(page(cli, "nesting"))
    owner = WebDriverWait(browser, 60).until(
        lambda driver: driver.find_element(By.CSS_SELECTOR, "g.node.done.nested-owner")
    )
    shown_before = [node.get_attribute("data-name") for node in nodes(browser)]

    owner.click()
    WebDriverWait(browser, 30).until(lambda driver: len(nodes(driver)) == 2)

    assert shown_before == ["group"]
    assert sorted(node.get_attribute("data-name") for node in nodes(browser)) == [
        "group",
        "member",
    ]
