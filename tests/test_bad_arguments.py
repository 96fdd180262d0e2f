"""Bad arguments, minigrad against PyTorch: 2,000 seeded calls of the public API with one
argument spoiled (tests/differential/bad_arguments.py), each run under both libraries.

The bar is PyTorch's: the same builtin exception type where PyTorch raises, and no
silent return.  minigrad does not reach it yet, so the figures of seed 0 are held where
they stand (a change may raise them, not lower them; raise the floors with it), and the
bar itself is a strict xfail.  No call may crash minigrad or run past the time limit.
Other seeds: scripts/bad_arguments.py --seed N.
"""
import importlib.util
import pathlib

import pytest

pytest.importorskip("torch")

_HERE = pathlib.Path(__file__).resolve().parent / "differential"
_spec = importlib.util.spec_from_file_location("differential_bad_arguments",
                                               _HERE / "bad_arguments.py")
bad_arguments = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bad_arguments)

SEED, COUNT = 0, 2000
# where seed 0 stands today: the floors of the ratchet
SAME_TYPE_FLOOR = 67.6          # % of the calls where PyTorch raises
SILENT_CEILING = 98             # calls where PyTorch raises and minigrad returns


@pytest.fixture(scope="module")
def results():
    return bad_arguments.statistics(SEED, COUNT)


@pytest.fixture(scope="module")
def figures(results):
    return bad_arguments.summary(results)


def _examples(results, outcome, n=8):
    return "\n".join(bad_arguments.describe(item) for item in results[outcome][:n])


def test_generator_is_seeded():
    first = [repr(call) for call in bad_arguments.generate(3, 50)]
    again = [repr(call) for call in bad_arguments.generate(3, 50)]
    other = [repr(call) for call in bad_arguments.generate(4, 50)]
    assert first == again and first != other


def test_outcomes_are_sorted_right():
    """A call minigrad answers as PyTorch does is `same`; one spoiled only for PyTorch's
    argument parser, `silent` when minigrad returns."""
    same = bad_arguments.Call("T", "exp", [None], {}, "argument 0 is None", 0)
    assert bad_arguments.compare(same)[0] in ("same", "other words")
    both = bad_arguments.Call("T", "exp", [bad_arguments.T2], {}, "nothing", 0)
    assert bad_arguments.compare(both)[0] == "both return"


def test_no_crash_or_hang(results):
    assert not results["crash"] and not results["hang"], (
        _examples(results, "crash") + "\n" + _examples(results, "hang"))


def test_same_exception_type_no_worse_than_before(results, figures):
    assert figures["same type %"] >= SAME_TYPE_FLOOR, _examples(results, "other type")


def test_silent_returns_no_more_than_before(results, figures):
    assert figures["silent"] <= SILENT_CEILING, _examples(results, "silent")


@pytest.mark.xfail(strict=True, reason="PyTorch's argument checks are not all copied yet: "
                                       "scripts/bad_arguments.py lists what differs")
def test_pytorchs_bar(results, figures):
    assert figures["same type %"] >= 95 and figures["silent"] <= 5, (
        _examples(results, "other type") + "\n" + _examples(results, "silent"))
