"""minigrad-tutor: copy the lessons into a workspace, open JupyterLab on the course index.

    minigrad-tutor                      lessons in ./minigrad-lessons, language from the locale
    minigrad-tutor --lang zh --dir ~/ag   中文课程，放在 ~/ag
    minigrad-tutor --reset 4            put lesson 04 back as shipped (your copy is backed up)
    minigrad-tutor --progress           which exercises you passed, and when
    minigrad-tutor --progress /home/* --format csv    a class's progress as one table (teachers)
    minigrad-tutor --solutions          the solution notebooks
    minigrad-tutor --hide-solutions     none in the workspace (a class's setup; MINIGRAD_HIDE_SOLUTIONS=1)
    minigrad-tutor --list               the lessons and their exercises
    minigrad-tutor --nbgrader course    an nbgrader course directory of the lessons (teachers)
    minigrad-tutor --tour               a short tour of the engine in the terminal

Re-running is always safe: new lessons are added, notebooks you edited are kept
(see minigrad/tutor/workspace.py).  JupyterLab is started with MINIGRAD_LANG
and MINIGRAD_WORKSPACE set, so the exercise checks answer in your language and
record your progress in the workspace.  One JupyterLab per workspace: a second
launch says where the running one is; asked for the other language (or the
solutions), it first copies those lessons in and switches the running JupyterLab's
menus to that language.  Each language keeps its own JupyterLab layout, so the
tabs of one never reopen next to the other's (jupyterlab.py).  A problem with the workspace (a folder
that cannot be written, a link that leads out of it) is said in the student's
language, with what to do, never as a Python traceback.
"""
import argparse
import importlib.util
import locale
import os
import pathlib
import sys

from minigrad import progress
from minigrad.settings import LANGUAGES
from minigrad.tutor import nbgrader, progress_table, running, workspace
from minigrad.tutor.jupyterlab import (jupyter_command, jupyter_environment, lab_url,
                                       seed_lab_settings, set_lab_language)
from minigrad.tutor.messages import say

DEFAULT_DIR = "minigrad-lessons"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        prog="minigrad-tutor",
        description="Copy minigrad's lessons into a workspace and open JupyterLab on the course index.")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="lesson language (default: MINIGRAD_LANG, the workspace's, else the locale)")
    parser.add_argument("--dir", default=DEFAULT_DIR, type=pathlib.Path,
                        help=f"workspace folder (default: ./{DEFAULT_DIR})")
    parser.add_argument("--solutions", action="store_true", help="open the solution notebooks")
    parser.add_argument("--hide-solutions", action="store_true",
                        help="leave the solution notebooks out of the workspace, and take out the "
                             "copies nobody edited (as MINIGRAD_HIDE_SOLUTIONS=1 does)")
    parser.add_argument("--reset", metavar="LESSON",
                        help="restore one lesson (a number or a slug) after backing up your copy")
    parser.add_argument("--progress", nargs="*", metavar="FOLDER",
                        help="print which exercises passed, and when: in this workspace, or in "
                             "each student's FOLDER named (a class's home folders) as one table")
    parser.add_argument("--format", choices=tuple(progress_table.FORMATS), default="text",
                        help="--progress as text (default), csv or json (one row per student "
                             "and exercise)")
    parser.add_argument("--list", action="store_true", help="list the lessons and their exercises")
    parser.add_argument("--tour", action="store_true", help="a short tour of the engine in the terminal")
    parser.add_argument("--nbgrader", metavar="DIR", type=pathlib.Path,
                        help="write an nbgrader course directory of the lessons into DIR (for teachers)")
    parser.add_argument("--no-browser", action="store_true", help="start JupyterLab without opening a browser")
    parser.add_argument("--port", type=int, help="JupyterLab's port (default: the first free one from 8888)")
    return parser.parse_args(argv)


def default_lang(environ=None, folder=None):
    """The language when --lang is not given: MINIGRAD_LANG, the workspace's, else the system locale.

    >>> default_lang({"LANG": "zh_CN.UTF-8"}), default_lang({"LANG": "de_DE.UTF-8"})
    ('zh', 'en')
    """
    environ = os.environ if environ is None else environ
    chosen = environ.get("MINIGRAD_LANG") or (folder and workspace.read_marker(folder).get("lang"))
    if not chosen:
        for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
            if environ.get(name):
                chosen = environ[name]
                break
        else:
            chosen = locale.getlocale()[0] or ""
    chosen = chosen.split(":")[0].lower()
    return "zh" if chosen.startswith(("zh", "chinese")) else "en"


def default_source():
    """The folder of the lessons: a clone's notebooks/, or their copy in the installed wheel."""
    from minigrad.lessons import LESSONS_DIR
    return LESSONS_DIR


def lesson_table(lang):
    """[(number, slug, title in `lang`, exercise ids)] of every lesson (minigrad.lessons.LESSONS)."""
    from minigrad.lessons import LESSONS
    return [(lesson.number, lesson.slug, lesson.title_zh if lang == "zh" else lesson.title_en,
             tuple(lesson.exercises)) for lesson in LESSONS]


def format_progress(entries, table, lang, folder):
    """The --progress report: per lesson, each exercise passed (✓ and when) or not (✗ attempts, · untried)."""
    known = [exercise for *_, exercises in table for exercise in exercises]
    passed = sum(1 for exercise in known if entries.get(exercise, {}).get("passed"))
    lines = [say(lang, "progress_header", passed=passed, total=len(known), folder=folder)]
    for number, _, title, exercises in table:
        if exercises:
            lines.append(f"{number:02d} {title}")
            lines.extend("   " + _exercise_line(name, entries.get(name), lang) for name in exercises)
    others = sorted(set(entries) - set(known))
    if others:
        lines.append(say(lang, "other_ids"))
        lines.extend("   " + _exercise_line(name, entries[name], lang) for name in others)
    return "\n".join(lines)


def _exercise_line(name, entry, lang):
    if not entry:
        return f"·  {name}"
    if entry.get("passed"):
        return f"✓  {name}  {entry.get('first_passed', '')}"
    return f"✗  {name}  ({say(lang, 'attempts', count=entry.get('attempts', 0))})"


def report_sync(changes, lang, folder, solutions=False):
    """What sync() did, in words: additions, updates, kept edits (the last counted, not listed)."""
    lines = [say(lang, "workspace", folder=folder)]
    for change in changes:
        path = _relative(change.path)
        if change.renamed_from:
            lines.append(say(lang, "renumbered", old=change.renamed_from.name, path=path))
        if change.status == workspace.KEPT_NEW_SAVED:
            number = f"{workspace.lesson_number(change.path):02d}" + (" --solutions" if solutions else "")
            lines.append(say(lang, "kept", path=path, new=_relative(change.new_version), number=number))
            if change.backup:
                lines.append(say(lang, "new_backed_up", backup=_relative(change.backup)))
        elif change.status in (workspace.ADDED, workspace.UPDATED):
            lines.append(say(lang, change.status, path=path))
    edited = sum(change.status == workspace.EDITED for change in changes)
    if edited:
        lines.append(say(lang, "edited", count=edited))
    return "\n".join(lines)


def main(argv=None, source=None):
    """Entry point of `minigrad-tutor` (and `python -m minigrad`); `source` is for tests."""
    try:
        return _main(argv, source)
    except BrokenPipeError:
        # The reader went away (`minigrad-tutor --progress /home/* | head`): as any command
        # line tool, stop quietly. Python would still try to flush stdout at exit and print
        # a traceback of its own, so stdout goes to the null device first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _main(argv, source):
    args = parse_args(argv)
    if args.tour:
        from minigrad.demo import main as tour
        return tour()
    source = pathlib.Path(source) if source else default_source()
    lang = args.lang or default_lang(folder=args.dir)
    if args.list:
        for number, _, title, exercises in lesson_table(lang):
            joined = ("、" if lang == "zh" else ", ").join(exercises)
            print(f"{number:02d}  {title}" + (f"  [{joined}]" if exercises else ""))
        return 0
    if args.progress is not None:
        if args.progress or args.format != "text":
            return _print_progress_table(args.progress, args.dir, args.format, lang)
        return _print_progress(args.dir, lang)
    if args.nbgrader:
        return _write_nbgrader_course(source, args.nbgrader, lang)
    args.hide_solutions = args.hide_solutions or workspace.solutions_hidden()
    if args.solutions and (args.hide_solutions
                           or not workspace.source_notebooks(source, lang, solutions=True)):
        print(say(lang, "solutions_hidden"), file=sys.stderr)
        return 1
    try:
        return _reset(source, args, lang) if args.reset else _launch(source, args, lang)
    except workspace.WorkspaceError as error:
        print(say(lang, error.key, **error.values), file=sys.stderr)
        return 1
    except OSError as error:          # a read-only folder, a full disk: said, not a traceback
        if error.errno is None:       # not the system's answer: minigrad's own error
            raise
        print(say(lang, "cannot_write", folder=_relative(args.dir), error=error.strerror),
              file=sys.stderr)
        return 1


def _reset(source, args, lang):
    _set_aside_damaged(args.dir, lang)
    if args.hide_solutions:
        _remove_solutions(args.dir, lang)
    try:
        lesson = workspace.find_lesson(source, lang, args.reset, args.solutions)
    except LookupError as error:
        print(error.args[0], file=sys.stderr)
        return 2
    copy = workspace.lesson_folder(args.dir, lang, args.solutions) / lesson.name
    if running.has_open(args.dir, copy):
        print(say(lang, "reset_open", path=_relative(copy), lesson=args.reset), file=sys.stderr)
        return 1
    restored, backups = workspace.reset(source, args.dir, lang, args.reset, args.solutions)
    print(say(lang, "restored", path=_relative(restored)))
    for backup in backups:
        print(say(lang, "backed_up", backup=_relative(backup)))
    return 0


def _launch(source, args, lang):
    args.dir.mkdir(parents=True, exist_ok=True)
    try:
        lock = workspace.lock(args.dir)   # JupyterLab holds it once this process becomes it
    except workspace.WorkspaceError as error:
        if error.key != "already_running":
            raise
        return _join(source, args, lang, error.values["pid"])
    try:
        _set_aside_damaged(args.dir, lang)
        if args.hide_solutions:
            _remove_solutions(args.dir, lang)
        changes = workspace.sync(source, args.dir, lang, args.solutions)
        print(report_sync(changes, lang, _relative(args.dir), args.solutions))
        if importlib.util.find_spec("jupyterlab") is None:
            print(say(lang, "no_jupyterlab"), file=sys.stderr)
            return 1
        print(say(lang, "starting", lesson=_relative(changes[0].path)), flush=True)
        command = jupyter_command(args.dir, changes[0].path, lang, args.port, not args.no_browser)
        environment = jupyter_environment(args.dir, lang)
        seed_lab_settings(args.dir)
        set_lab_language(environment["JUPYTERLAB_SETTINGS_DIR"], lang)
        return _run(command, environment)
    finally:                              # reached when JupyterLab ran as a child, or not at all
        os.close(lock)


def _set_aside_damaged(folder, lang):
    for name, backup in workspace.set_aside_damaged(folder):
        print(say(lang, "damaged", file=name, backup=_relative(backup)))


def _join(source, args, lang, pid):
    """A launch on a workspace whose JupyterLab already runs: say where it is.  Asked for
    another language (or the solutions), first bring those lessons in and switch the
    running JupyterLab's menus to that language, then open its course index there."""
    switching = lang != workspace.read_marker(args.dir).get("lang") or args.solutions
    folder = workspace.lesson_folder(args.dir, lang, args.solutions)
    if switching:
        _set_aside_damaged(args.dir, lang)
        changes = workspace.sync(source, args.dir, lang, args.solutions)
        print(report_sync(changes, lang, _relative(args.dir), args.solutions))
        set_lab_language(jupyter_environment(args.dir, lang)["JUPYTERLAB_SETTINGS_DIR"], lang)
    server = running.server(args.dir, pid)
    if server is None:
        print(say(lang, "already_starting", folder=_relative(args.dir), pid=pid or "?"),
              file=sys.stderr)
        return 1
    first = workspace.source_notebooks(source, lang, args.solutions)[0].name
    url = running.url(server, lab_url(lang, (folder / first).relative_to(args.dir)))
    if not switching:
        print(say(lang, "already_running", folder=_relative(args.dir), url=url), file=sys.stderr)
        return 1
    print(say(lang, "switched", folder=_relative(args.dir), lessons=_relative(folder), url=url))
    if not args.no_browser:
        import webbrowser
        webbrowser.open(url)
    return 0


def _print_progress(folder, lang):
    """Print the progress of `folder`, else of the workspace around (MINIGRAD_WORKSPACE, or upwards)."""
    folder = _workspace_around(folder)
    if not _is_workspace(folder):
        print(say(lang, "no_workspace", folder=_relative(folder)))
        return 1
    entries, damaged = progress.read(folder)
    if damaged:
        print(say(lang, "progress_damaged", file=progress.FILENAME))
    if not entries:
        print(say(lang, "no_progress", folder=_relative(folder)))
        return 0
    print(format_progress(entries, lesson_table(lang), lang, _relative(folder)))
    return 0


def _remove_solutions(folder, lang):
    removed, kept = workspace.remove_solutions(folder)
    if removed:
        print(say(lang, "solutions_removed", count=len(removed)))
    for path in kept:
        print(say(lang, "solutions_kept", path=_relative(path)))


def _print_progress_table(folders, folder, form, lang):
    """--progress as a table: of each student folder in `folders`, else of this workspace."""
    folder = _workspace_around(folder)
    if not folders and not _is_workspace(folder):
        print(say(lang, "no_workspace", folder=_relative(folder)))
        return 1
    missing = [name for name in folders if not pathlib.Path(name).is_dir()]
    if missing:
        print(say(lang, "no_folder", folder=missing[0]), file=sys.stderr)
        return 2
    table = progress_table.class_rows(folders, folder)
    print(progress_table.FORMATS[form](table))
    for damaged in sorted({row["workspace"] for row in table if row["workspace"]
                           and progress.read(row["workspace"])[1]}):
        print(say(lang, "table_damaged", file=pathlib.Path(damaged, progress.FILENAME)),
              file=sys.stderr)
    return 0


def _write_nbgrader_course(source, folder, lang):
    """Write the nbgrader course directory and say what to run next."""
    if not workspace.source_notebooks(source, lang, solutions=True):
        print(say(lang, "nbgrader_no_solutions"), file=sys.stderr)
        return 1
    written = nbgrader.write_course(source, folder, lang)
    assignments = [path.parent.name for path, _ in written if path.suffix == ".ipynb"]
    print(say(lang, "nbgrader_course", folder=_relative(folder), count=len(assignments)))
    for path, status in written:
        print(say(lang, f"nbgrader_{status}" if status != nbgrader.ADDED else status,
                  path=_relative(path)))
    config = folder / nbgrader.CONFIG
    if "minigrad.tutor.grading.SandboxedGrading" not in config.read_text(encoding="utf-8"):
        print(say(lang, "nbgrader_unsandboxed", path=_relative(config)), file=sys.stderr)
    print(say(lang, "nbgrader_next", folder=_relative(folder), assignment=assignments[0]))
    return 0


def _workspace_around(folder):
    """`folder` when it is a workspace, else the workspace check() would use, if any."""
    return folder if _is_workspace(folder) else progress.find_workspace() or folder


def _is_workspace(folder):
    folder = pathlib.Path(folder)
    return (folder / progress.MARKER).exists() or (folder / progress.FILENAME).exists()


def _run(command, environment):
    """Become JupyterLab (exec), so Ctrl+C and SIGTERM reach it directly; a child process on Windows."""
    sys.stdout.flush()
    if os.name == "posix":
        os.execve(command[0], command, environment)
    import subprocess
    return subprocess.call(command, env=environment)


def _relative(path):
    """`path` relative to the current folder when inside it (shorter messages), else absolute."""
    path = pathlib.Path(path).resolve()
    try:
        return str(path.relative_to(pathlib.Path.cwd()))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
