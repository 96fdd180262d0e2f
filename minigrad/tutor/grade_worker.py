"""The grading worker: one submitted notebook's code cells, run where they can harm nothing.

minigrad.tutor.grading starts `python -I -m minigrad.tutor.grade_worker` in a
sandbox (minigrad.tutor.sandbox) for each submission, writes it one job on its
stdin (JSON: the cells, the cells to skip, a seed per exercise) and reads its
stdout, one JSON line per event: "ready", then "start" and "done" for each cell
(the cell's outputs, whether it raised, and what each check in it reported),
then "finished".

The cells run in an IPython shell, as a kernel runs them (magics, the display
of a cell's last value).  Nothing here is trusted: the student's code shares
this process and can rewrite anything in it, this file included.  `check` is
replaced by a recorder: it runs the check's diagnosis (for the hint) and, when
that passes, the exercise's trial on the grader's seed, and reports both; the
grader judges the trial's report in its own process (see minigrad.exercises._trial).
A worker that lies can only report what a right answer would: forging the
report for inputs drawn at grading time means solving the exercise.
"""
import io
import json
import os
import sys

from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config

MAX_TEXT = 100_000        # characters of printed text kept per cell


def main():
    job = json.loads(sys.stdin.read())
    channel = _private_stdout()
    import minigrad.exercises as exercises
    outputs, records = [], []
    exercises.check = _recorder(exercises, job["seeds"], job["check_timeout"], records)
    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    shell = _Shell.instance(config=config, display_pub_class=_publisher(outputs),
                            displayhook_class=_displayhook(outputs))
    shell.outputs = outputs
    sys.path.insert(0, "")            # the notebook's folder, as in a Jupyter kernel
    _send(channel, {"event": "ready"})
    skip = set(job["skip"])
    for cell in job["cells"]:
        if cell["index"] in skip:
            continue
        _send(channel, {"event": "start", "cell": cell["index"]})
        outputs.clear()
        records.clear()
        streams = (sys.stdout, sys.stderr)
        sys.stdout, sys.stderr = _Stream("stdout", outputs), _Stream("stderr", outputs)
        try:
            result = shell.run_cell(cell["source"], store_history=False)
        finally:
            sys.stdout, sys.stderr = streams
        failed = result.error_before_exec is not None or result.error_in_exec is not None
        _send(channel, {"event": "done", "cell": cell["index"], "outputs": list(outputs),
                        "error": failed, "checks": list(records)})
    _send(channel, {"event": "finished"})


def _private_stdout():
    """The grader's channel: the process's stdout, moved to a descriptor of its own; what
    the notebook writes to descriptors 1 and 2 is dropped (its prints are captured)."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    return channel


def _send(channel, event):
    channel.write(json.dumps(event, allow_nan=True, default=str) + "\n")
    channel.flush()


def _recorder(exercises, seeds, time_limit, records):
    """`check` while grading: the diagnosis and, for a pass, the trial's report, recorded."""
    def check(exercise_id, answer, lang=None, **ignored):
        result = exercises.diagnose(exercise_id, answer, "en", time_limit)
        record = {"id": exercise_id if isinstance(exercise_id, str) else None,
                  "status": result.status, "hint": result.hint, "params": result.params}
        if result.passed and exercise_id in seeds:
            record["report"] = exercises.trial_report(exercise_id, answer, seeds[exercise_id],
                                                      time_limit)
        records.append(record)
        return result
    return check


class _Stream(io.TextIOBase):
    """sys.stdout or sys.stderr of a cell: its text becomes the cell's stream outputs."""

    def __init__(self, name, outputs):
        self.name, self.outputs = name, outputs

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        if not text:
            return 0
        last = self.outputs[-1] if self.outputs else None
        if last is not None and last.get("output_type") == "stream" and last["name"] == self.name:
            last["text"] = (last["text"] + text)[:MAX_TEXT]
        else:
            self.outputs.append({"output_type": "stream", "name": self.name, "text": text[:MAX_TEXT]})
        return len(text)


def _publisher(outputs):
    class Publisher(DisplayPublisher):
        def publish(self, data, metadata=None, *args, **kwargs):
            outputs.append({"output_type": "display_data", "data": data,
                            "metadata": metadata or {}})

        def clear_output(self, wait=False):
            outputs.clear()
    return Publisher


def _displayhook(outputs):
    class Hook(DisplayHook):
        def write_output_prompt(self):
            pass

        def write_format_data(self, format_dict, md_dict=None):
            outputs.append({"output_type": "execute_result", "data": format_dict,
                            "metadata": md_dict or {}, "execution_count": None})
    return Hook


class _Shell(InteractiveShell):
    """Errors become error outputs, as a kernel sends them."""

    def _showtraceback(self, etype, evalue, stb):
        try:
            value = str(evalue)
        except Exception:       # noqa: BLE001 — the exception's __str__ is the notebook's
            value = ""
        self.outputs.append({"output_type": "error",
                             "ename": type.__getattribute__(etype, "__name__"),
                             "evalue": value[:MAX_TEXT], "traceback": list(stb)})


if __name__ == "__main__":
    main()
