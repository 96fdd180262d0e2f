"""minigrad-tutor: the workspace never loses a student's work, and JupyterLab really starts.

Most tests run the launcher on a fake lessons folder (two or three small
notebooks) with JupyterLab's start replaced by a recorder; the last one starts
JupyterLab for real on the shipped lessons and stops it.
"""
import datetime
import json
import os
import pathlib
import signal
import subprocess
import sys
import urllib.request

import nbformat
import pytest

from minigrad import progress
from minigrad.lessons import INDEX, LESSONS, LESSONS_DIR, list_lessons
from minigrad.tutor import cli, jupyterlab, workspace

from jupyter_helpers import free_port, get, start_tutor, stop, wait_for_jupyterlab

SLUGS = ["01-tensors-and-the-graph", "03-backward-order", "04-custom-functions"]


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
    assert "已添加" in out and "03-backward-order.ipynb" in out
    [(command, environment)] = launch
    assert "--LabApp.default_url=/lab/workspaces/minigrad-zh/tree/zh/01-tensors-and-the-graph.ipynb" in command
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
                       "03-backward-order.ipynb": workspace.UPDATED,
                       "04-custom-functions.ipynb": workspace.ADDED}
    assert cell_text(work / "en" / "03-backward-order.ipynb") == "en lesson two v2"
    assert not list((work / "en").glob("*.new.ipynb"))


def test_a_notebook_without_a_manifest_entry_is_the_students(tmp_path, source):
    work = tmp_path / "work"
    workspace.sync(source, work, "en")
    (work / workspace.MANIFEST).unlink()                 # lost: assume every difference is theirs
    lesson = work / "en" / "03-backward-order.ipynb"
    lesson.write_text(lesson.read_text().replace("v1", "mine"))
    [*_, change] = workspace.sync(source, work, "en")
    assert change.status == workspace.KEPT_NEW_SAVED and "mine" in cell_text(lesson)


def test_reset_backs_up_the_students_copy_then_restores_the_lesson(tmp_path, source, launch, capsys):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    lesson = work / "en" / "03-backward-order.ipynb"
    lesson.write_text(lesson.read_text().replace("v1", "broken by me"))
    write_lesson(source, "en", SLUGS[1], "en lesson two v2")
    workspace.sync(source, work, "en")                   # leaves 03-backward-order.new.ipynb
    assert (work / "en" / "03-backward-order.new.ipynb").exists()
    launch.clear()

    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--reset", "3")
    assert code == 0 and not launch                      # --reset does not start JupyterLab
    assert cell_text(lesson) == "en lesson two v2"
    [backup] = (work / "en" / "backups").glob("03-backward-order.*.ipynb")
    assert "broken by me" in cell_text(backup) and backup.name in out
    assert not (work / "en" / "03-backward-order.new.ipynb").exists()

    # Reset by slug, of an unedited copy: nothing to back up.
    restored, saved = workspace.reset(source, work, "en", "backward-order",
                                      now=datetime.datetime(2026, 1, 1))
    assert restored == lesson and saved == []
    assert len(list((work / "en" / "backups").iterdir())) == 1
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--reset", "99")
    assert code == 2 and "01-tensors-and-the-graph" in out


def test_solutions_open_in_their_own_folder(tmp_path, source, launch, capsys):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--solutions")
    [(command, _)] = launch
    assert "--LabApp.default_url=/lab/workspaces/minigrad-en/tree/en/solutions/01-tensors-and-the-graph.ipynb" in command
    solution = work / "en" / "solutions" / "03-backward-order.ipynb"
    assert cell_text(solution) == "solution 03-backward-order v1"
    solution.write_text(solution.read_text().replace("v1", "annotated"))
    write_lesson(source, "en", SLUGS[1], "solution two v2", solutions=True)
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--solutions")
    assert "annotated" in cell_text(solution) and "--reset 03 --solutions" in out


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
    assert "·  relu" in lines and "04 Custom Functions" in lines

    code, out = run_cli(capsys, source, "--dir", str(work), "--progress", "--lang", "zh")
    assert f"已通过的练习：1 / {total}" in out and "04 自定义 Function" in out and "尝试 2 次" in out


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
    assert code == 0 and len(lines) == len(LESSONS)
    assert lines[3] == ("04  Custom Functions  [exp, sigmoid, relu, mul_constant, add_broadcast, "
                        "batched_matmul]")


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
    assert cell_text(work / "en" / "03-backward-order.ipynb") == "en 03-backward-order v1"
    assert not [p for p in work.rglob(".tmp-*")]


@pytest.mark.skipif(not list_lessons("en"), reason="the lessons are not built yet")
def test_launches_jupyterlab_on_the_course_index_and_stops_cleanly(tmp_path):
    port = free_port()
    process = start_tutor([sys.executable, "-m", "minigrad", "--lang", "en"], tmp_path, port)
    try:
        status = wait_for_jupyterlab(port, process)
        assert status["kernels"] == 0
        first = f"en/{INDEX}.ipynb"                      # the index, then the lessons it links
        assert (tmp_path / "lessons" / list_lessons("en")[0].relative_to(LESSONS_DIR)).exists()
        assert json.loads(get(port, f"/api/contents/{first}?content=0"))["type"] == "notebook"
        assert b"JupyterLab" in get(port, f"/lab/tree/{first}")
        if sys.platform.startswith("linux"):             # exec: the launcher's pid is JupyterLab's
            environ = pathlib.Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
            assert b"MINIGRAD_LANG=en" in environ
            assert f"MINIGRAD_WORKSPACE={(tmp_path / 'lessons').resolve()}".encode() in environ
        second = start_tutor([sys.executable, "-m", "minigrad", "--lang", "en"], tmp_path,
                             free_port())              # one JupyterLab per workspace
        try:
            said, _ = second.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"a second JupyterLab started:\n{stop(second)}") from None
        assert second.returncode == 1, said
        url = (f"http://localhost:{port}/lab/workspaces/minigrad-en/tree/{first}"
               "?token=minigrad-test-token")
        assert url in said
        with urllib.request.urlopen(url, timeout=10) as page:     # it opens as it is: no 403
            assert b"JupyterLab" in page.read()
    finally:
        output = stop(process, signal.SIGTERM)
    assert process.returncode in (0, -signal.SIGTERM), output
    assert f"/lab/workspaces/minigrad-en/tree/{first}" in output    # it opens the index
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


@pytest.mark.skipif(not (LESSONS_DIR / "zh" / "solutions" / "04-custom-functions.ipynb").exists(),
                    reason="lesson 04 is not built yet")
def test_checks_run_in_the_workspace_record_progress_that_the_launcher_prints(tmp_path, monkeypatch, capsys):
    """The whole loop: launcher's workspace and environment -> kernel -> check() -> --progress."""
    import nbclient
    work = tmp_path / "work"
    cli.main(["--dir", str(work), "--lang", "zh", "--solutions", "--reset", "04"])
    environment = jupyterlab.jupyter_environment(work, "zh", environ={})
    for name, value in environment.items():
        monkeypatch.setenv(name, value)              # what JupyterLab's kernels inherit
    lesson = work / "zh" / "solutions" / "04-custom-functions.ipynb"
    notebook = nbformat.read(lesson, as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(lesson.parent)}}).execute()
    capsys.readouterr()
    assert cli.main(["--dir", str(work), "--progress"]) == 0
    out = capsys.readouterr().out
    lesson_04 = next(lesson for lesson in LESSONS if lesson.number == 4)
    for exercise in lesson_04.exercises:
        assert f"✓  {exercise}" in out                   # the solutions pass every check
    assert "已通过的练习" in out                          # MINIGRAD_LANG=zh reached the launcher too


def test_the_terminal_tour_is_still_reachable(capsys):
    assert not cli.main(["--tour"])
    assert "backward ran the nodes in this order" in capsys.readouterr().out


def test_a_reader_that_stops_early_gets_no_traceback():
    """`minigrad-tutor --progress /home/* | head`: the reader closes the pipe before the
    launcher has written (here: at once), and the launcher stops quietly."""
    child = subprocess.Popen([sys.executable, "-m", "minigrad", "--tour"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    child.stdout.close()                     # long before the child has imported minigrad
    errors = child.stderr.read()
    assert child.wait(timeout=120) == 1
    assert "Traceback" not in errors and "BrokenPipeError" not in errors, errors


def test_jupyterlab_opens_without_the_news_pop_up_unless_the_student_chose_settings(tmp_path):
    environment = jupyterlab.jupyter_environment(tmp_path, "en", environ={})
    assert environment["JUPYTERLAB_SETTINGS_DIR"] == str(jupyterlab.lab_settings_dir(tmp_path))
    jupyterlab.seed_lab_settings(tmp_path)
    setting = (jupyterlab.lab_settings_dir(tmp_path) / "@jupyterlab" / "apputils-extension"
               / "notification.jupyterlab-settings")
    assert json.loads(setting.read_text())["fetchNews"] == "false"
    setting.write_text('{"fetchNews": "true"}')             # the student's own choice stays
    jupyterlab.seed_lab_settings(tmp_path)
    assert json.loads(setting.read_text())["fetchNews"] == "true"
    chosen = jupyterlab.jupyter_environment(tmp_path, "en", environ={"JUPYTERLAB_SETTINGS_DIR": "/mine"})
    assert chosen["JUPYTERLAB_SETTINGS_DIR"] == "/mine"


def test_each_language_has_its_tabs_and_a_closed_lesson_ends_its_kernel(tmp_path):
    """The tabs of one language never reopen in the other's JupyterLab layout, kept in the
    lesson folder unless the student chose one; closing a tab shuts its kernel down."""
    folder = tmp_path / "lessons"
    zh = jupyterlab.jupyter_command(folder, folder / "zh" / "00-index.ipynb", "zh")
    assert "--LabApp.default_url=/lab/workspaces/minigrad-zh/tree/zh/00-index.ipynb" in zh
    environment = jupyterlab.jupyter_environment(folder, "zh", environ={})
    assert environment["JUPYTERLAB_WORKSPACES_DIR"] == str(folder.resolve() / ".jupyterlab-workspaces")
    chosen = jupyterlab.jupyter_environment(folder, "zh", environ={"JUPYTERLAB_WORKSPACES_DIR": "/mine"})
    assert chosen["JUPYTERLAB_WORKSPACES_DIR"] == "/mine"
    jupyterlab.seed_lab_settings(folder)
    tracker = (jupyterlab.lab_settings_dir(folder) / "@jupyterlab" / "notebook-extension"
               / "tracker.jupyterlab-settings")
    assert json.loads(tracker.read_text()) == {"kernelShutdown": True}


# ---------------------------------------------------------------- nothing a student wrote lost

def edit(path, text):
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[1].source = text
    nbformat.write(notebook, path)


def backed_up_texts(work):
    return sorted(cell_text(path) for path in (work / "en" / "backups").glob("*.ipynb"))


def test_work_in_the_new_notebook_survives_reruns_upgrades_and_reset(tmp_path, source, launch, capsys):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    lesson = work / "en" / "01-tensors-and-the-graph.ipynb"
    new_version = work / "en" / "01-tensors-and-the-graph.new.ipynb"
    edit(lesson, "my notes")
    write_lesson(source, "en", SLUGS[0], "en lesson one v2")
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    assert cell_text(new_version) == "en lesson one v2"

    edit(new_version, "I work in the new one")           # the student switches to it
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    assert code == 0 and cell_text(new_version) == "I work in the new one"
    assert cell_text(lesson) == "my notes"

    write_lesson(source, "en", SLUGS[0], "en lesson one v3")   # an upgrade: .new is backed up
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    assert cell_text(new_version) == "en lesson one v3"
    assert backed_up_texts(work) == ["I work in the new one"]
    [backup] = (work / "en" / "backups").glob("*.ipynb")
    assert backup.name in out and "moved to" in out

    edit(new_version, "more work in the new one")
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--reset", "1")
    assert code == 0 and cell_text(lesson) == "en lesson one v3" and not new_version.exists()
    assert backed_up_texts(work) == ["I work in the new one", "more work in the new one", "my notes"]


def test_two_resets_in_the_same_second_keep_two_backups(tmp_path, source):
    work = tmp_path / "work"
    workspace.sync(source, work, "en")
    lesson = work / "en" / "03-backward-order.ipynb"
    when = datetime.datetime(2026, 5, 6, 7, 8, 9)
    for text in ("first try", "second try"):
        edit(lesson, text)
        workspace.reset(source, work, "en", "3", now=when)
    assert backed_up_texts(work) == ["first try", "second try"]
    names = sorted(path.name for path in (work / "en" / "backups").iterdir())
    assert names == ["03-backward-order.20260506-070809-2.ipynb",
                     "03-backward-order.20260506-070809.ipynb"]


WRONG_SHAPES = ["[]", '"text"', "null", "42", '{"lang": 5}', '{"lang": ["en"]}', "{",
                "\xff\xfe not utf-8"]


@pytest.mark.parametrize("name", [progress.MARKER, workspace.MANIFEST])
@pytest.mark.parametrize("content", WRONG_SHAPES)
def test_a_damaged_marker_or_manifest_is_kept_aside_and_the_launch_carries_on(
        tmp_path, source, launch, capsys, name, content):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "zh")
    edit(work / "zh" / "01-tensors-and-the-graph.ipynb", "我的笔记")
    damaged = content.encode("latin-1")
    (work / name).write_bytes(damaged)
    said = ""
    for argv in (["--progress"], ["--reset", "3"], [], []):
        code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "zh", *argv)
        assert code == 0, out
        said += out
    [backup] = work.glob(f"{pathlib.Path(name).stem}.damaged.*")
    assert backup.read_bytes() == damaged
    assert said.count("无法读取工作区文件") == 1 and said.count(backup.name) == 1    # said once
    assert workspace.read_marker(work) == {"lang": "zh"}
    assert cell_text(work / "zh" / "01-tensors-and-the-graph.ipynb") == "我的笔记"


@pytest.mark.parametrize("lang, said", [("en", "Cannot write in"), ("zh", "无法写入")])
def test_a_read_only_workspace_is_said_in_the_students_language(
        tmp_path, source, launch, capsys, monkeypatch, lang, said):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", lang)
    write_lesson(source, lang, SLUGS[1], "a newer lesson two")

    def read_only(*args, dir=None, **kwargs):   # root ignores chmod: the error a student gets
        raise PermissionError(13, "Permission denied", str(dir))
    monkeypatch.setattr(workspace.progress.tempfile, "mkstemp", read_only)
    for argv in ([], ["--reset", "3"]):
        code, out = run_cli(capsys, source, "--dir", str(work), "--lang", lang, *argv)
        assert code == 1 and said in out and "Traceback" not in out
    assert len(launch) == 1


def test_one_jupyterlab_per_workspace_the_second_launch_says_where(
        tmp_path, source, launch, capsys, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(runtime))
    holder = workspace.lock(work)                  # a launch that became JupyterLab
    try:
        code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en")
        assert code == 1 and not launch and "already running" in out and str(os.getpid()) in out
        (runtime / f"jpserver-{os.getpid()}.json").write_text(json.dumps({
            "pid": os.getpid(), "url": "http://localhost:8890/", "token": "abc",
            "root_dir": str(work.resolve())}))
        code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en")
        assert code == 1 and not launch
        assert ("already open in JupyterLab: http://localhost:8890/lab/workspaces/minigrad-en/"
                "tree/en/01-tensors-and-the-graph.ipynb?token=abc") in out
    finally:
        os.close(holder)
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    assert code == 0 and len(launch) == 1


def test_a_launch_in_the_other_language_while_jupyterlab_runs_switches_it(
        tmp_path, source, launch, capsys, monkeypatch):
    """The English tutor runs; --lang zh copies the Chinese lessons, switches the running
    JupyterLab's menus to Chinese and gives (and opens) its Chinese course index.
    tests/browser/test_tutor_sessions.py does the same with a real JupyterLab."""
    work, runtime = tmp_path / "work", tmp_path / "runtime"
    runtime.mkdir()
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(runtime))
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    opened = []
    monkeypatch.setattr("webbrowser.open", opened.append)
    holder = workspace.lock(work)
    try:
        (runtime / f"jpserver-{os.getpid()}.json").write_text(json.dumps({
            "pid": os.getpid(), "url": "http://localhost:8890/", "token": "abc",
            "root_dir": str(work.resolve())}))
        code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "zh")
    finally:
        os.close(holder)
    url = ("http://localhost:8890/lab/workspaces/minigrad-zh/tree/zh/"
           "01-tensors-and-the-graph.ipynb?token=abc")
    assert code == 0 and len(launch) == 1 and url in out and opened == [url]
    assert "已添加" in out and (work / "zh" / "03-backward-order.ipynb").exists()
    environment = jupyterlab.jupyter_environment(work, "zh")
    setting = translation_setting(environment["JUPYTERLAB_SETTINGS_DIR"])
    assert json.loads(setting.read_text()) == {"locale": "zh_CN"}
    assert workspace.read_marker(work)["lang"] == "zh"


@pytest.mark.parametrize("link", ["en", ".jupyterlab-settings", "en/backups", ".minigrad-lock"])
def test_a_link_leading_out_of_the_workspace_is_refused(tmp_path, source, launch, capsys, link):
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    elsewhere.mkdir()
    if link == "en/backups":                         # a reset would move a copy out
        run_cli(capsys, source, "--dir", str(work), "--lang", "en")
        edit(work / "en" / "03-backward-order.ipynb", "mine")
        launch.clear()
    work.mkdir(exist_ok=True)
    if link == ".minigrad-lock":                     # a file link: the lock would be made there
        (work / link).symlink_to(elsewhere / "lock")
    else:
        (work / link).symlink_to(elsewhere, target_is_directory=True)
    argv = ["--reset", "3"] if link == "en/backups" else []
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", *argv)
    assert code == 1 and not launch and "outside the workspace" in out
    assert list(elsewhere.iterdir()) == []


DAMAGED_PROGRESS = [b"", b"{", b'{"exercises": {"exp": {"passed": tr', b"not json",
                    '{"exercises": {"exp": {"passed": true, "attempts": 1, "last_attempt": "é"}}}'
                    .encode("latin-1"),
                    b"[]", b'"text"', b"null", b'{"exercises": []}', b'{"exercises": {"exp": 5}}',
                    b'{"exercises": {"exp": {"passed": "yes", "attempts": 2}}}',
                    b'{"exercises": {"exp": {"passed": true, "attempts": "3"}}}']


@pytest.mark.parametrize("content", DAMAGED_PROGRESS)
def test_progress_never_crashes_on_a_damaged_progress_file(tmp_path, source, launch, capsys, content):
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    (work / progress.FILENAME).write_bytes(content)
    code, out = run_cli(capsys, source, "--dir", str(work), "--progress")
    assert code == 0 and "is damaged" in out
    assert (work / progress.FILENAME).read_bytes() == content        # --progress only reads
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    [backup] = work.glob("minigrad-progress.damaged.*.json")
    assert backup.read_bytes() == content and backup.name in out


FAKE_PYTHON = """#!/usr/bin/env bash
# A stand-in for .venv/bin/python: logs pip's calls; FAKE_OFFLINE=1 makes pip fail.
echo "$@" >> "$(dirname "$0")/../pip.log"
[ -n "${FAKE_OFFLINE:-}" ] && exit 1
printf '#!/usr/bin/env bash\\necho "tutor started $* (as $MINIGRAD_TUTOR_COMMAND)"\\n' > "$(dirname "$0")/minigrad-tutor"
chmod +x "$(dirname "$0")/minigrad-tutor"
"""


def test_start_tutor_installs_once_then_starts_at_once_and_offline(tmp_path):
    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    script = root / "scripts" / "start-tutor.sh"
    script.write_bytes((README.parent / "scripts" / "start-tutor.sh").read_bytes())
    (root / "pyproject.toml").write_text("[project]\nname = 'minigrad'\n")
    python = root / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)

    def start(*argv, offline=False):
        environment = {**os.environ, "FAKE_OFFLINE": "1" if offline else ""}
        return subprocess.run(["bash", str(script), *argv], env=environment,
                              capture_output=True, text=True, timeout=60)

    def pip_calls():
        log = root / ".venv" / "pip.log"
        return log.read_text().count("pip install") if log.exists() else 0

    first = start("--lang", "zh")
    assert first.returncode == 0 and "tutor started --lang zh" in first.stdout
    assert f"(as {script})" in first.stdout        # its messages name the script to run again
    assert pip_calls() == 1
    again = start("--progress", offline=True)          # installed: no pip, no network
    assert again.returncode == 0 and "tutor started --progress" in again.stdout
    assert pip_calls() == 1
    (root / "pyproject.toml").write_text("[project]\nname = 'minigrad'\nversion = '2'\n")
    offline = start(offline=True)                      # wants an update, has no network
    assert offline.returncode == 0 and "tutor started" in offline.stdout
    assert pip_calls() == 2 and "installed before" in offline.stdout


def translation_setting(settings_dir):
    return (pathlib.Path(settings_dir) / "@jupyterlab" / "translation-extension"
            / "plugin.jupyterlab-settings")


def test_jupyterlab_speaks_the_lessons_language(tmp_path, source, launch, capsys):
    """--lang zh opens JupyterLab's menus in Chinese (its zh_CN language pack comes with the
    tutor extra); --lang en puts them back; a language the student picked stays."""
    import importlib.util
    assert importlib.util.find_spec("jupyterlab_language_pack_zh_CN"), "pip install minigrad-tutor[tutor]"
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "zh", "--no-browser")
    [(_, environment)] = launch
    setting = translation_setting(environment["JUPYTERLAB_SETTINGS_DIR"])
    assert json.loads(setting.read_text()) == {"locale": "zh_CN"}
    run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--no-browser")
    assert json.loads(setting.read_text()) == {"locale": "en"}
    setting.write_text('{\n    "locale": "zh_CN"\n}')        # chosen in Settings > Language
    assert not jupyterlab.set_lab_language(setting.parents[2], "en")
    assert json.loads(setting.read_text()) == {"locale": "zh_CN"}


def test_the_lab_language_link_is_a_server_extension():
    """Binder's Chinese link goes through /minigrad/lab-language/zh (enabled by postBuild);
    tests/browser/test_lessons_in_the_browser.py follows it in Chromium."""
    from minigrad.tutor import lab_language
    assert lab_language._jupyter_server_extension_points() == [
        {"module": "minigrad.tutor.lab_language"}]
    postbuild = (README.parent / "binder" / "postBuild").read_text()
    assert "jupyter server extension enable --sys-prefix minigrad.tutor.lab_language" in postbuild
    readme = README.read_text(encoding="utf-8")
    assert "urlpath=minigrad%2Flab-language%2Fzh%3Fnext%3Dlab%2Ftree%2Fnotebooks%2Fzh%2F" in readme


def test_a_copied_lesson_carries_the_kernels_language_info(tmp_path, source, launch, capsys):
    """JupyterLab writes the kernel's language_info into a notebook when its kernel starts:
    a lesson holding only {"name": "python"} showed as modified as soon as it was opened.
    The copy holds what this Python's kernel reports, and a rerun still finds it unedited.
    (tests/browser/test_tutor_sessions.py opens one and finds it unmodified.)"""
    from ipykernel.ipkernel import IPythonKernel
    lesson = source / "en" / f"{SLUGS[0]}.ipynb"
    notebook = nbformat.read(lesson, as_version=4)
    notebook.metadata.update(kernelspec={"name": "python3", "display_name": "Python 3",
                                         "language": "python"},
                             language_info={"name": "python"})
    nbformat.write(notebook, lesson)
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    copy = nbformat.read(work / "en" / lesson.name, as_version=4)
    assert copy.metadata.language_info == IPythonKernel.language_info
    assert copy.cells == notebook.cells
    changes = workspace.sync(source, work, "en")
    assert {change.status for change in changes} == {workspace.UNCHANGED}


def test_reset_of_a_lesson_open_in_jupyterlab_asks_to_close_its_tab_first(
        tmp_path, source, launch, capsys, monkeypatch):
    """A lesson reset under its open tab: JupyterLab then offered to overwrite the lesson
    with the tab's copy.  The running JupyterLab's sessions say which lessons are open."""
    import http.server
    import threading
    work, runtime = tmp_path / "work", tmp_path / "runtime"
    runtime.mkdir()
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(runtime))
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    edit(work / "en" / f"{SLUGS[1]}.ipynb", "mine")
    asked = []

    class Sessions(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            asked.append((self.path, self.headers["Authorization"]))
            body = json.dumps([{"path": f"en/{SLUGS[1]}.ipynb", "type": "notebook"}]).encode()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass
    server = http.server.HTTPServer(("127.0.0.1", 0), Sessions)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    holder = workspace.lock(work)
    try:
        (runtime / f"jpserver-{os.getpid()}.json").write_text(json.dumps({
            "pid": os.getpid(), "url": f"http://127.0.0.1:{server.server_port}/",
            "token": "abc", "root_dir": str(work.resolve())}))
        code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--reset", "3")
        assert code == 1 and "close its tab first" in out and "--reset 3" in out
        assert cell_text(work / "en" / f"{SLUGS[1]}.ipynb") == "mine"     # untouched
        assert asked == [("/api/sessions", "token abc")]
        code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--reset", "1")
        assert code == 0 and "Restored" in out                  # lesson 01 is not open
    finally:
        os.close(holder)
        server.shutdown()
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--reset", "3")
    assert code == 0 and cell_text(work / "en" / f"{SLUGS[1]}.ipynb") == "en 03-backward-order v1"


@pytest.mark.parametrize("started, command", [(None, "minigrad-tutor"),
                                              ("scripts/start-tutor.sh", "scripts/start-tutor.sh")])
def test_the_launcher_names_commands_as_the_student_started_it(
        tmp_path, source, launch, capsys, monkeypatch, started, command):
    """A student who started with scripts/start-tutor.sh has no minigrad-tutor command:
    what the launcher tells them to run is written the way they started it."""
    if started is None:
        monkeypatch.delenv("MINIGRAD_TUTOR_COMMAND", raising=False)
    else:
        monkeypatch.setenv("MINIGRAD_TUTOR_COMMAND", started)
    work = tmp_path / "work"
    run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    edit(work / "en" / f"{SLUGS[0]}.ipynb", "mine")
    write_lesson(source, "en", SLUGS[0], "a newer lesson one")
    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en")
    assert f"To switch to it: {command} --reset 01" in out
    code, out = run_cli(capsys, source, "--dir", str(tmp_path / "nothing"), "--progress")
    assert f"run {command} first" in out


def test_a_lesson_that_changed_number_keeps_the_students_work_under_its_new_name(
        tmp_path, source, launch, capsys):
    """A workspace made when lesson 03 was the backward order: the copies follow their
    lessons to the new numbers, the edited one with the student's answers in it."""
    work = tmp_path / "work"
    old_source = tmp_path / "old"
    for slug in ("01-tensors-and-the-graph", "02-backward-order"):
        write_lesson(old_source, "en", slug, f"en {slug} v0")
    workspace.sync(old_source, work, "en")
    edit(work / "en" / "02-backward-order.ipynb", "my answers")
    (work / "en" / "02-backward-order.new.ipynb").write_text("{}")   # a newer one it was given

    code, out = run_cli(capsys, source, "--dir", str(work), "--lang", "en", "--no-browser")
    assert code == 0
    mine = work / "en" / f"{SLUGS[1]}.ipynb"                      # 03-backward-order.ipynb
    assert cell_text(mine) == "my answers"                         # kept, under the new name
    assert (work / "en" / f"{SLUGS[1]}.new.ipynb").exists()
    assert not list((work / "en").glob("02-*"))
    [said] = [line for line in out.splitlines() if "renamed" in line]
    assert said.startswith("  renamed  02-backward-order.ipynb to ") and "new order" in said
    assert said.split(" to ")[1].split(":")[0].endswith(f"{SLUGS[1]}.ipynb")
    # the edited copy stays the student's: the shipped lesson goes next to it, as always
    manifest = workspace.read_manifest(work)
    assert "en/02-backward-order.ipynb" not in manifest
    assert cell_text(work / "en" / f"{SLUGS[0]}.ipynb") == f"en {SLUGS[0]} v1"  # unedited: updated
