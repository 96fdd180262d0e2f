"""minigrad-tutor: the workspace never loses a student's work, and JupyterLab really starts.

Most tests run the launcher on a fake lessons folder (two or three small
notebooks) with JupyterLab's start replaced by a recorder; the last one starts
JupyterLab for real on the shipped lessons and stops it.
"""
import datetime
import json
import pathlib
import signal
import sys

import nbformat
import pytest

from minigrad import progress
from minigrad.lessons import LESSONS, LESSONS_DIR, list_lessons
from minigrad.tutor import cli, workspace

from jupyter_helpers import free_port, get, start_tutor, stop, wait_for_jupyterlab

SLUGS = ["01-tensors-and-the-graph", "02-backward-order", "03-custom-functions"]


def write_lesson(source, lang, slug, text, solutions=False):
    folder = workspace.lesson_folder(source, lang, solutions)
    folder.mkdir(parents=True, exist_ok=True)
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(f"import minigrad\nminigrad.settings.lang = {lang!r}"),
        nbformat.v4.new_markdown_cell(text)])
    nbformat.write(notebook, folder / f"{slug}.ipynb")
    return folder / f"{slug}.ipynb"


def cell_text(path):
    return nbformat.read(path, as_version=4).cells[1].source


@pytest.fixture
def source(tmp_path):
    """Fake shipped lessons: two in English and Chinese, with English solutions."""
    root = tmp_path / "shipped"
    for slug in SLUGS[:2]:
        for lang in ("en", "zh"):
            write_lesson(root, lang, slug, f"{lang} {slug} v1")
        write_lesson(root, "en", slug, f"solution {slug} v1", solutions=True)
    return root


@pytest.fixture
def launch(monkeypatch):
    """Replace the exec of JupyterLab by a recorder of (command, environment)."""
    calls = []
    monkeypatch.setattr(cli, "_run", lambda command, environment: calls.append((command, environment)) or 0)
    return calls


def run_cli(capsys, source, *argv):
    code = cli.main(list(argv), source=source)
    out = capsys.readouterr()
    return code, out.out + out.err


def test_first_run_copies_the_lessons_marks_the_workspace_and_opens_lesson_one(
        tmp_path, source, launch, capsys, monkeypatch):
    monkeypatch.delenv("MINIGRAD_WORKSPACE", raising=False)
    work = tmp_path / "work"
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "zh", "--no-browser", "--port", "9123")
    assert code == 0
    assert sorted(p.name for p in (work / "zh").glob("*.ipynb")) == [f"{s}.ipynb" for s in SLUGS[:2]]
    assert not (work / "en").exists()                    # only the chosen language
    assert json.loads((work / progress.MARKER).read_text())["lang"] == "zh"
    manifest = workspace.read_manifest(work)
    assert manifest["zh/01-tensors-and-the-graph.ipynb"] == workspace.digest(
        source / "zh" / "01-tensors-and-the-graph.ipynb")
    assert "已添加" in out and "02-backward-order.ipynb" in out
    [(command, environment)] = launch
    assert "--LabApp.default_url=/lab/tree/zh/01-tensors-and-the-graph.ipynb" in command
    assert f"--ServerApp.root_dir={work.resolve()}" in command
    assert "--ServerApp.port=9123" in command and "--ServerApp.open_browser=False" in command
    assert environment["MINIGRAD_LANG"] == "zh"
    assert environment["MINIGRAD_WORKSPACE"] == str(work.resolve())
    assert progress.find_workspace(work / "zh") == work.resolve()


def test_rerun_keeps_the_students_edit_and_says_so(tmp_path, source, launch, capsys):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    lesson = work / "en" / "01-tensors-and-the-graph.ipynb"
    notebook = nbformat.read(lesson, as_version=4)
    notebook.cells[1].source = "my own notes"
    nbformat.write(notebook, lesson)

    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    assert code == 0 and cell_text(lesson) == "my own notes"
    assert "Your edits are kept in 1 notebook" in out

    # The lesson changes upstream: the edit stays, the new version lands next to it.
    write_lesson(source, "en", SLUGS[0], "en lesson one v2")
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    assert cell_text(lesson) == "my own notes"
    new_version = work / "en" / "01-tensors-and-the-graph.new.ipynb"
    assert cell_text(new_version) == "en lesson one v2"
    assert "kept" in out and str(pathlib.Path("en") / new_version.name) in out
    assert "--reset 01" in out


def test_unedited_lessons_are_updated_and_new_lessons_added(tmp_path, source, launch, capsys):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    write_lesson(source, "en", SLUGS[1], "en lesson two v2")
    write_lesson(source, "en", SLUGS[2], "en lesson three v1")
    changes = {c.name: c.status for c in workspace.sync(source, work, "en")}
    assert changes == {"01-tensors-and-the-graph.ipynb": workspace.UNCHANGED,
                       "02-backward-order.ipynb": workspace.UPDATED,
                       "03-custom-functions.ipynb": workspace.ADDED}
    assert cell_text(work / "en" / "02-backward-order.ipynb") == "en lesson two v2"
    assert not list((work / "en").glob("*.new.ipynb"))


def test_a_notebook_without_a_manifest_entry_is_the_students(tmp_path, source):
    work = tmp_path / "work"
    workspace.sync(source, work, "en")
    (work / workspace.MANIFEST).unlink()                 # lost: assume every difference is theirs
    lesson = work / "en" / "02-backward-order.ipynb"
    lesson.write_text(lesson.read_text().replace("v1", "mine"))
    [*_, change] = workspace.sync(source, work, "en")
    assert change.status == workspace.KEPT_NEW_SAVED and "mine" in cell_text(lesson)


def test_reset_backs_up_the_students_copy_then_restores_the_lesson(tmp_path, source, launch, capsys):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    lesson = work / "en" / "02-backward-order.ipynb"
    lesson.write_text(lesson.read_text().replace("v1", "broken by me"))
    write_lesson(source, "en", SLUGS[1], "en lesson two v2")
    workspace.sync(source, work, "en")                   # leaves 02-backward-order.new.ipynb
    assert (work / "en" / "02-backward-order.new.ipynb").exists()
    launch.clear()

    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--reset", "2")
    assert code == 0 and not launch                      # --reset does not start JupyterLab
    assert cell_text(lesson) == "en lesson two v2"
    [backup] = (work / "en" / "backups").glob("02-backward-order.*.ipynb")
    assert "broken by me" in cell_text(backup) and backup.name in out
    assert not (work / "en" / "02-backward-order.new.ipynb").exists()

    # Reset by slug, of an unedited copy: nothing to back up.
    restored, saved = workspace.reset(source, work, "en", "backward-order",
                                      now=datetime.datetime(2026, 1, 1))
    assert restored == lesson and saved is None
    assert len(list((work / "en" / "backups").iterdir())) == 1
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--reset", "99")
    assert code == 2 and "01-tensors-and-the-graph" in out


def test_solutions_open_in_their_own_folder(tmp_path, source, launch, capsys):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--solutions")
    [(command, _)] = launch
    assert "--LabApp.default_url=/lab/tree/en/solutions/01-tensors-and-the-graph.ipynb" in command
    solution = work / "en" / "solutions" / "02-backward-order.ipynb"
    assert cell_text(solution) == "solution 02-backward-order v1"
    solution.write_text(solution.read_text().replace("v1", "annotated"))
    write_lesson(source, "en", SLUGS[1], "solution two v2", solutions=True)
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--solutions")
    assert "annotated" in cell_text(solution) and "--reset 02 --solutions" in out


def test_progress_prints_passed_failed_and_untried_exercises(tmp_path, source, launch, capsys, monkeypatch):
    monkeypatch.delenv("MINIGRAD_WORKSPACE", raising=False)
    work = tmp_path / "work"
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--progress")
    assert code == 1 and "not a lesson workspace" in out
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    code, out = run_cli(capsys, source, "--dir", str(work), "--progress")
    assert code == 0 and "No exercise checked yet" in out

    when = datetime.datetime(2026, 3, 4, 5, 6, 7)
    progress.record("exp", True, workspace=work, now=when)
    progress.record("sigmoid", False, workspace=work, now=when)
    progress.record("sigmoid", False, workspace=work, now=when)
    code, out = run_cli(capsys, source, "--dir", str(work), "--progress")
    lines = [line.strip() for line in out.splitlines()]
    total = sum(len(lesson.exercises) for lesson in LESSONS)
    assert lines[0].startswith(f"Exercises passed: 1 of {total}")
    assert "✓  exp  2026-03-04T05:06:07" in lines
    assert "✗  sigmoid  (2 attempt(s))" in lines
    assert "·  relu" in lines and "03 Custom Functions" in lines

    code, out = run_cli(capsys, source, "--dir", str(work), "--progress", "--lang", "zh")
    assert f"已通过的练习：1 / {total}" in out and "03 自定义函数" in out and "尝试 2 次" in out


@pytest.mark.parametrize("environ, marker, expected", [
    ({"LANG": "zh_CN.UTF-8"}, None, "zh"),
    ({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, None, "zh"),
    ({"LANG": "en_GB.UTF-8"}, None, "en"),
    ({"LANG": "fr_FR.UTF-8"}, None, "en"),
    ({"LANG": "en_US.UTF-8"}, "zh", "zh"),               # the workspace remembers the language
    ({"LANG": "zh_CN.UTF-8", "MINIGRAD_LANG": "en"}, "zh", "en"),
])
def test_default_language(tmp_path, environ, marker, expected):
    if marker:
        workspace.write_marker(tmp_path, marker)
    assert cli.default_lang(environ, tmp_path) == expected


def test_list_names_every_lesson_and_its_exercises(capsys, source):
    code, out = run_cli(capsys, source, "--list", "--lang", "en")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(LESSONS) == 12
    assert lines[2] == "03  Custom Functions  [exp, sigmoid, relu, mul_constant, add_broadcast]"


def test_copies_are_written_atomically(tmp_path, source, monkeypatch):
    """A copy interrupted half-way leaves the previous file and no temporary behind."""
    work = tmp_path / "work"
    workspace.sync(source, work, "en")
    write_lesson(source, "en", SLUGS[1], "en lesson two v2")

    def fail(*args):
        raise KeyboardInterrupt
    monkeypatch.setattr(workspace.os, "replace", fail)
    with pytest.raises(KeyboardInterrupt):
        workspace.sync(source, work, "en")
    assert cell_text(work / "en" / "02-backward-order.ipynb") == "en 02-backward-order v1"
    assert not [p for p in work.rglob(".tmp-*")]


@pytest.mark.skipif(not list_lessons("en"), reason="the lessons are not built yet")
def test_launches_jupyterlab_on_the_first_lesson_and_stops_cleanly(tmp_path):
    port = free_port()
    process = start_tutor([sys.executable, "-m", "minigrad", "--lang", "en"], tmp_path, port)
    try:
        status = wait_for_jupyterlab(port, process)
        assert status["kernels"] == 0
        first = list_lessons("en")[0].relative_to(LESSONS_DIR).as_posix()
        assert json.loads(get(port, f"/api/contents/{first}?content=0"))["type"] == "notebook"
        assert b"JupyterLab" in get(port, f"/lab/tree/{first}")
        if sys.platform.startswith("linux"):             # exec: the launcher's pid is JupyterLab's
            environ = pathlib.Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
            assert b"MINIGRAD_LANG=en" in environ
            assert f"MINIGRAD_WORKSPACE={(tmp_path / 'lessons').resolve()}".encode() in environ
    finally:
        output = stop(process, signal.SIGTERM)
    assert process.returncode in (0, -signal.SIGTERM), output
    assert f"/lab/tree/{first}" in output                # the URL it printed opens lesson one
    assert (tmp_path / "lessons" / first).exists()


README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_first_commands_are_the_two_scripts():
    text = README.read_text(encoding="utf-8")
    block = text[text.index("```bash\n") + 8:]
    commands = [line.split("#")[0].strip() for line in block[:block.index("```")].splitlines()]
    assert commands == ["scripts/start-tutor.sh", "scripts/run-tests.sh"]
    root = README.parent
    assert all((root / command).is_file() and (root / command).stat().st_mode & 0o111 for command in commands)
    assert "minigrad-tutor" in (root / "scripts" / "start-tutor.sh").read_text()
    assert text.index("assets/backward-animation-en.svg") < text.index("```bash")


def test_progress_follows_minigrad_workspace(tmp_path, monkeypatch, capsys, source):
    """On a JupyterHub, MINIGRAD_WORKSPACE names the home folder (no marker there): --progress reads it."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(home))
    monkeypatch.chdir(tmp_path)
    progress.record("relu", True, now=datetime.datetime(2026, 5, 6, 7, 8, 9))
    code, out = run_cli(capsys, source, "--progress", "--lang", "en")
    assert code == 0 and "✓  relu  2026-05-06T07:08:09" in out


@pytest.mark.skipif(not (LESSONS_DIR / "zh" / "solutions" / "03-custom-functions.ipynb").exists(),
                    reason="lesson 03 is not built yet")
def test_checks_run_in_the_workspace_record_progress_that_the_launcher_prints(tmp_path, monkeypatch, capsys):
    """The whole loop: launcher's workspace and environment -> kernel -> check() -> --progress."""
    import nbclient
    work = tmp_path / "work"
    cli.main(["--dir", str(work), "--lang", "zh", "--solutions", "--reset", "03"])
    environment = cli.jupyter_environment(work, "zh", environ={})
    for name, value in environment.items():
        monkeypatch.setenv(name, value)              # what JupyterLab's kernels inherit
    lesson = work / "zh" / "solutions" / "03-custom-functions.ipynb"
    notebook = nbformat.read(lesson, as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(lesson.parent)}}).execute()
    capsys.readouterr()
    assert cli.main(["--dir", str(work), "--progress"]) == 0
    out = capsys.readouterr().out
    lesson_03 = next(lesson for lesson in LESSONS if lesson.number == 3)
    for exercise in lesson_03.exercises:
        assert f"✓  {exercise}" in out                   # the solutions pass every check
    assert "已通过的练习" in out                          # MINIGRAD_LANG=zh reached the launcher too


def test_the_terminal_tour_is_still_reachable(capsys):
    assert not cli.main(["--tour"])
    assert "backward ran the nodes in this order" in capsys.readouterr().out


def test_jupyterlab_opens_without_the_news_pop_up_unless_the_student_chose_settings(tmp_path):
    environment = cli.jupyter_environment(tmp_path, "en", environ={})
    assert environment["JUPYTERLAB_SETTINGS_DIR"] == str(cli.lab_settings_dir(tmp_path))
    cli.seed_lab_settings(tmp_path)
    setting = (cli.lab_settings_dir(tmp_path) / "@jupyterlab" / "apputils-extension"
               / "notification.jupyterlab-settings")
    assert json.loads(setting.read_text())["fetchNews"] == "false"
    setting.write_text('{"fetchNews": "true"}')             # the student's own choice stays
    cli.seed_lab_settings(tmp_path)
    assert json.loads(setting.read_text())["fetchNews"] == "true"
    chosen = cli.jupyter_environment(tmp_path, "en", environ={"JUPYTERLAB_SETTINGS_DIR": "/mine"})
    assert chosen["JUPYTERLAB_SETTINGS_DIR"] == "/mine"
