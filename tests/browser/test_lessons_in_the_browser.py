"""The course as a Chinese student meets it: JupyterLab's menus in Chinese, the course index,
its links to the lessons.

The server runs the extension behind Binder's Chinese link (minigrad.tutor.lab_language):
the page opens /minigrad/lab-language/zh?next=lab/tree/zh/00-index.ipynb, as that link
does, which writes JupyterLab's language setting (minigrad-tutor --lang zh writes the same
one) and goes on to the index.
"""
import json
import secrets
import shutil

import pytest

from minigrad.lessons import INDEX, LESSONS, LESSONS_DIR

from .conftest import JupyterLab, free_port

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chinese_lab(tmp_path_factory, chromium_path):
    """A JupyterLab with the zh lessons' index and lesson 01, and the language link enabled."""
    base = tmp_path_factory.mktemp("jupyterlab-zh")
    root = base / "root"
    (root / "zh").mkdir(parents=True)
    for name in (INDEX, LESSONS[0].slug):
        shutil.copy(LESSONS_DIR / "zh" / f"{name}.ipynb", root / "zh")
    server = JupyterLab(root, free_port(), secrets.token_hex(16), base / "jupyterlab.log",
                        extra_args=['--ServerApp.jpserver_extensions='
                                    '{"minigrad.tutor.lab_language": True}'])
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_chinese_link_opens_jupyterlab_in_chinese_on_the_course_index(browser, chinese_lab):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        page.goto(chinese_lab.url("minigrad/lab-language/zh")
                  + f"&next=lab/tree/zh/{INDEX}.ipynb")
        menu = page.locator("#jp-menu-panel, .lm-MenuBar").first
        menu.wait_for()
        page.get_by_role("menuitem", name="文件").first.wait_for()     # File
        assert page.get_by_role("menuitem", name="编辑").count()       # Edit
        setting = (chinese_lab.settings_dir / "@jupyterlab" / "translation-extension"
                   / "plugin.jupyterlab-settings")
        assert json.loads(setting.read_text()) == {"locale": "zh_CN"}
        first = f"01 · {LESSONS[0].title('zh')}"
        page.get_by_role("link", name=first).first.click()
        page.locator(".lm-TabBar-tab", has_text=f"{LESSONS[0].slug}.ipynb").first.wait_for()
        page.locator(".jp-RenderedMarkdown:visible", has_text="欢迎！").first.wait_for()
    finally:
        context.close()
        chinese_lab.shutdown_kernels()


def test_the_language_link_refuses_to_send_the_browser_elsewhere(chinese_lab):
    import urllib.error
    import urllib.request
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(chinese_lab.url("minigrad/lab-language/en")
                               + "&next=https://example.com/", timeout=10)
    assert refused.value.code == 400
