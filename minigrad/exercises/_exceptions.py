"""What an answer raised, in words: a mistake minigrad's own error names, or the
exception quoted with the line of the student's code it came from.

`str(error)` runs the answer's code (an exception class may define `__str__`):
it is called inside the time limit, with its failure caught (see __init__).
"""
import linecache
import os
import pathlib
import re
import sysconfig

from ._tools import Hint

_EXCEPTION_HINTS = (      # (exception type, text in its message, hint key, fixed params)
    (RuntimeError, "incorrect number of gradients", "wrong_num_grads", {}),
    (RuntimeError, "corresponding forward input was not", "grad_for_non_tensor", {}),
    (RuntimeError, "expected Variable or None (got numpy", "returned_numpy", {"where": "backward"}),
    (TypeError, "hook returned 'ndarray'", "returned_numpy", {"where": "hook"}),
    (RuntimeError, "modified by an inplace operation", "saved_then_modified", {}),
    (RuntimeError, "leaf Variable that requires grad is being used in an in-place",
     "update_in_no_grad", {}),
    (TypeError, "does not support ufuncs", "numpy_function_on_tensor", {}),
    (TypeError, "save_for_backward can only save", "saved_non_tensor", {}),
    (TypeError, "backward() takes", "backward_args", {}),
    (TypeError, "backward() missing", "backward_args", {}),
    (TypeError, "forward() takes", "forward_args", {}),
    (TypeError, "forward() missing", "forward_args", {}),
)
_NUMBERS = {      # what minigrad's message says, for the keys whose text names numbers
    "wrong_num_grads": r"expected (?P<expected>\d+), got (?P<got>\d+)",
    "grad_for_non_tensor": r"at position (?P<input>\d+)",
}


def hint_for_exception(error):
    """The Hint for an exception raised by the answer: a known mistake, or 'raised' with
    the line of the student's code it came from ('raised_no_line' when none is found)."""
    text = _safe_text(error)
    unpacked = _unpacked_what_forward_did_not_save(error, text)
    if unpacked is not None:
        return unpacked
    for kind, fragment, key, params in _EXCEPTION_HINTS:
        if isinstance(error, kind) and fragment in text:
            if key in _NUMBERS:
                found = re.search(_NUMBERS[key], text)
                if found is None:
                    break
                params = {name: int(value) for name, value in found.groupdict().items()}
                if key == "grad_for_non_tensor":     # PyTorch's message counts from 1
                    params["input"] -= 1
            return Hint(key, **params)
    text = text.rstrip(". ")      # the hint's own sentence ends it: no ".." twice
    if len(text) > 300:
        text = text[:300] + "..."
    name = type.__getattribute__(type(error), "__name__")
    error_text = f"{name}: {text}" if text else name
    line = students_line(error.__traceback__)
    if line is None:
        return Hint("raised_no_line", error=error_text)
    return Hint("raised", error=error_text, function=line[0], line=line[1])


_UNPACK = re.compile(r"(?:not enough|too many) values to unpack \(expected (?P<expected>\d+)"
                     r"(?:, got (?P<got>\d+))?\)")


def _unpacked_what_forward_did_not_save(error, text):
    """backward unpacking ctx.saved_tensors into more (or fewer) names than forward saved:
    a ValueError, or an IndexError for saved_tensors[k], raised in backward although the
    mistake is forward's (the tensors it gave ctx.save_for_backward).  None otherwise."""
    line = students_line(error.__traceback__)
    if line is None or "saved_tensors" not in line[1]:
        return None
    found = _UNPACK.search(text) if isinstance(error, ValueError) else None
    if found is not None and found["got"] is not None:
        expected, got = int(found["expected"]), int(found["got"])
        if got == 0:
            return Hint("saved_nothing", line=line[1])
        return Hint("saved_fewer", expected=expected, got=got, line=line[1])
    if found is not None:
        return Hint("saved_more", expected=int(found["expected"]), line=line[1])
    if isinstance(error, IndexError):
        return Hint("saved_index", line=line[1])
    return None


def _safe_text(error):
    """str(error), or '' when printing it fails (an exception's __str__ is the answer's code)."""
    try:
        return str.__str__(str(error))
    except Exception:       # noqa: BLE001 — a looping __str__ is stopped by the time limit
        return ""


def _library_folders():
    try:
        paths = sysconfig.get_paths()
    except Exception:       # noqa: BLE001 — an unusual Python: minigrad's own folder still counts
        paths = {}
    folders = {paths[name] for name in ("stdlib", "platstdlib", "purelib", "platlib") if name in paths}
    folders.add(pathlib.Path(__file__).resolve().parents[1])      # minigrad itself
    return tuple(os.path.join(pathlib.Path(folder).resolve(), "") for folder in folders)


_LIBRARIES = _library_folders()


def students_line(traceback):
    """(function, source line) of the innermost frame of `traceback` in the student's code
    (not in minigrad, numpy or Python's own library), or None."""
    found = None
    while traceback is not None:
        code = traceback.tb_frame.f_code
        filename = code.co_filename
        if not filename.startswith("<frozen") and not _in_library(filename):
            text = linecache.getline(filename, traceback.tb_lineno,
                                     traceback.tb_frame.f_globals).strip()
            if text:
                found = (code.co_name, text[:120])
        traceback = traceback.tb_next
    return found


def _in_library(filename):
    try:
        path = str(pathlib.Path(filename).resolve())
    except (OSError, ValueError):
        return False
    return path.startswith(_LIBRARIES)
