"""Fixtures of the browser tests: a JupyterLab server and headless Chromium.

`jupyter_lab` starts `python -m jupyterlab` with this interpreter (so the
kernel, `python3` from the same environment, imports this checkout's minigrad)
on a free port, with a random token, in a temporary root directory; every
Jupyter directory (config, data, runtime, workspaces, settings) is temporary
too, so nothing the developer has configured leaks in and nothing is left
behind.  `browser` is Debian's Chromium driven by Playwright; Playwright's own
browser downloads are never used.  The tests skip, naming the fix, only where
no `chromium` binary exists (`apt-get install chromium`; scripts/run-tests.sh
installs it when it runs as root).

When a test fails, the page's screenshot and JupyterLab's log are saved to
tests/browser/artifacts/ (ignored by git), and their paths are printed.
"""
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).parent / "artifacts"
SERVER_START_TIMEOUT = 60        # seconds until /api/status answers
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def find_chromium():
    """Debian's chromium (the `chromium` on PATH, else /usr/bin/chromium), or None."""
    found = shutil.which("chromium")
    if found is None and os.access("/usr/bin/chromium", os.X_OK):
        found = "/usr/bin/chromium"
    return found


def free_port():
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class JupyterLab:
    """A running `jupyter lab`: its `root` directory, `url(path)`, `log_tail()`."""

    def __init__(self, root, port, token, log_path, extra_args=()):
        self.root, self.port, self.token, self.log_path = root, port, token, log_path
        self.extra_args = list(extra_args)          # more --Option=value for `jupyter lab`
        self.process = None

    @property
    def settings_dir(self):
        """JupyterLab's user settings folder of this server (temporary)."""
        return self.root.parent / "jupyter" / "settings"

    def url(self, path):
        """The address of `path` on this server, with the token."""
        return f"http://127.0.0.1:{self.port}/{path.lstrip('/')}?token={self.token}"

    def log_tail(self, lines=60):
        """The end of JupyterLab's log, to read in a failure message."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def start(self):
        jupyter_dirs = self.root.parent / "jupyter"
        env = dict(os.environ,
                   JUPYTER_CONFIG_DIR=str(jupyter_dirs / "config"),
                   JUPYTER_DATA_DIR=str(jupyter_dirs / "data"),
                   JUPYTER_RUNTIME_DIR=str(jupyter_dirs / "runtime"),
                   IPYTHONDIR=str(jupyter_dirs / "ipython"),
                   JUPYTER_PLATFORM_DIRS="0",
                   MINIGRAD_LANG="en",
                   PYTHONUNBUFFERED="1")
        # `-m jupyterlab`, not `-m jupyter lab`: the latter runs the `jupyter-lab` script,
        # whose #! line may name another environment's Python (a copied virtual
        # environment), and the kernels would import that environment's minigrad
        command = [
            sys.executable, "-m", "jupyterlab", "--no-browser",
            f"--port={self.port}", "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
            "--ServerApp.open_browser=False",
            # no network: no news feed, no update check, no PyPI extension manager
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            f"--LabApp.workspaces_dir={jupyter_dirs / 'workspaces'}",
            f"--LabApp.user_settings_dir={jupyter_dirs / 'settings'}",
            *self.extra_args,
        ]
        if os.geteuid() == 0:        # CI containers run as root
            command.append("--allow-root")
        # "Would you like to get notified about official Jupyter news?" would cover the widget
        notification = (jupyter_dirs / "settings" / "@jupyterlab" / "apputils-extension"
                        / "notification.jupyterlab-settings")
        notification.parent.mkdir(parents=True)
        notification.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        # nbgrader (in the test extra for tests/test_nbgrader.py) is no part of a student's
        # JupyterLab: its menu, Validate button and sidebar stay out of the pages tested here
        config = jupyter_dirs / "config"
        (config / "labconfig").mkdir(parents=True)
        (config / "labconfig" / "page_config.json").write_text(
            json.dumps({"disabledExtensions": {"@jupyter/nbgrader": True}}))
        (config / "jupyter_server_config.json").write_text(json.dumps({"ServerApp": {
            "jpserver_extensions": {f"nbgrader.server_extensions.{name}": False for name in
                                    ("formgrader", "validate_assignment", "assignment_list",
                                     "course_list")}}}))
        self.log_file = open(self.log_path, "w", encoding="utf-8")
        self.process = subprocess.Popen(command, cwd=self.root, env=env, stdin=subprocess.DEVNULL,
                                        stdout=self.log_file, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with code {self.process.returncode}:\n"
                                   + self.log_tail())
            try:
                with urllib.request.urlopen(self.url("api/status"), timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"jupyter lab did not answer /api/status within "
                           f"{SERVER_START_TIMEOUT} s:\n" + self.log_tail())

    def api(self, path, method="GET", body=None):
        """Call the server's REST API; returns the decoded JSON answer (or None)."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.url(f"api/{path}"), data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def start_kernel_for(self, notebook):
        """Start `notebook`'s kernel session before a page opens it; returns the kernel id."""
        # NOTE: a page that opens a notebook with no session yet may ask for a
        # kernel twice when the machine is busy: the server starts two, shuts the
        # first down, and the page stays attached to the dead one (cells never
        # run).  A page that finds a session already there just connects to it.
        session = self.api("sessions", "POST", {"path": notebook, "name": notebook,
                                                "type": "notebook",
                                                "kernel": {"name": "python3"}})
        return session["kernel"]["id"]

    def shutdown_kernels(self):
        """Shut down every kernel this server runs (a test's kernel must not outlive it)."""
        for attempt in range(5):
            try:
                kernels = self.api("kernels")
                break
            except urllib.error.HTTPError:      # a kernel still starting can make the list
                if attempt == 4:                # fail (500) for a moment
                    raise
                time.sleep(1)
        for kernel in kernels:
            self.api(f"kernels/{kernel['id']}", "DELETE")

    def stop(self):
        """Terminate the server (it shuts its kernels down), kill it if it hangs."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log_file.close()


@pytest.fixture(scope="session")
def chromium_path():
    path = find_chromium()
    if path is None:
        pytest.skip("no chromium browser: install Debian's with `apt-get install chromium` "
                    "(scripts/run-tests.sh does so when it runs as root)")
    return path


@pytest.fixture(scope="session")
def browser(chromium_path):
    """Headless Chromium through Playwright (Debian's binary, never a downloaded one)."""
    from playwright.sync_api import sync_playwright     # in the test extra: a missing one is an error

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path, headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def jupyter_lab(tmp_path_factory, chromium_path):
    """A JupyterLab server on a free port, serving a fresh temporary directory."""
    base = tmp_path_factory.mktemp("jupyterlab")
    root = base / "root"
    root.mkdir()
    server = JupyterLab(root, free_port(), secrets.token_hex(16), base / "jupyterlab.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember each phase's report on the test item, so fixtures know a test failed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture(scope="session")
def artifacts():
    """tests/browser/artifacts/: screenshots to look at (ignored by git); old failures removed."""
    ARTIFACTS.mkdir(exist_ok=True)
    for old_failure in ARTIFACTS.glob("FAILED-*"):
        old_failure.unlink()
    return ARTIFACTS


@pytest.fixture
def page(browser, jupyter_lab, artifacts, request):
    """A fresh browser page; on failure, its screenshot and the server log go to artifacts/."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(30_000)
    tab = context.new_page()
    yield tab
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        shot = artifacts / f"FAILED-{request.node.name}.png"
        log = artifacts / f"FAILED-{request.node.name}-jupyterlab.log"
        try:
            tab.screenshot(path=str(shot), full_page=True)
        except Exception as error:        # a crashed page must not hide the test's own failure
            print(f"could not take a screenshot: {error}")
        shutil.copyfile(jupyter_lab.log_path, log)
        print(f"browser test failed: screenshot {shot}, JupyterLab log {log}")
    context.close()
    jupyter_lab.shutdown_kernels()
