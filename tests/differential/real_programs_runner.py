"""Run every program of tests/differential/real_programs/ under one library, in one
process, and print what each printed, as JSON: {file name: output}.

    .venv/bin/python tests/differential/real_programs_runner.py torch
    .venv/bin/python tests/differential/real_programs_runner.py minigrad [names...]

Under "minigrad", an import hook makes `import torch` (and `torch.nn.functional`,
`torch.autograd.functional` ...) import minigrad's modules: the programs run unchanged.
Under either library the random functions (torch.manual_seed, randn, rand, randint,
normal, Tensor.uniform_ ...) draw from one numpy generator, seeded with 0 before each
program and again by its own manual_seed: both libraries get the same numbers (PyTorch's
random stream is its own C++ generator, which minigrad does not copy).  A program's
output is what it printed, then the first line of each warning, then the exception it
ended with, if any.  tests/test_real_programs.py compares the two libraries' outputs.
"""
import contextlib
import importlib
import importlib.abc
import importlib.util
import io
import json
import pathlib
import signal
import sys
import traceback
import warnings

import numpy as np

PROGRAMS = pathlib.Path(__file__).resolve().parent / "real_programs"
TIME_LIMIT = 30             # seconds a program may run


class TorchIsMinigrad(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`import torch.x.y` imports minigrad.x.y (and fails where minigrad has no such module)."""

    def find_spec(self, fullname, path, target=None):
        if fullname == "torch" or fullname.startswith("torch."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        module = importlib.import_module("minigrad" + spec.name[len("torch"):])
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.own_spec        # (importing set it to torch's name)


# --- the same random numbers under both libraries ---------------------------------------

class SharedRandom:
    """numpy's generator behind T's random functions; what a function T lacks stays lacking."""

    def __init__(self, T):
        self.T, self.rng = T, np.random.RandomState(0)

    def seed(self, seed=0):
        self.rng = np.random.RandomState(int(seed) % 2 ** 32)

    def tensor(self, data, dtype=None, device=None, requires_grad=False):
        T = self.T
        dtype = T.get_default_dtype() if dtype is None else dtype
        return T.tensor(np.asarray(data), dtype=dtype, requires_grad=requires_grad)

    def install(self):
        T, shared = self.T, self

        def shape_of(size):
            if len(size) == 1 and isinstance(size[0], (tuple, list)) or (
                    len(size) == 1 and type(size[0]).__name__ == "Size"):
                return tuple(size[0])
            return tuple(size)

        def manual_seed(seed):
            shared.seed(seed)

        def randn(*size, dtype=None, device=None, requires_grad=False, **_):
            return shared.tensor(shared.rng.standard_normal(shape_of(size)), dtype, device,
                                 requires_grad)

        def rand(*size, dtype=None, device=None, requires_grad=False, **_):
            return shared.tensor(shared.rng.random_sample(shape_of(size)), dtype, device,
                                 requires_grad)

        def randint(*args, size=None, dtype=None, device=None, requires_grad=False, **_):
            if size is None:
                *args, size = args
            low, high = (0, args[0]) if len(args) == 1 else args
            return T.tensor(shared.rng.randint(low, high, tuple(size)),
                            dtype=dtype or T.int64, requires_grad=requires_grad)

        def randperm(n, dtype=None, device=None, requires_grad=False, **_):
            return T.tensor(shared.rng.permutation(n), dtype=dtype or T.int64)

        def randn_like(x, dtype=None, device=None, requires_grad=False, **_):
            return randn(*x.shape, dtype=dtype or x.dtype, requires_grad=requires_grad)

        def rand_like(x, dtype=None, device=None, requires_grad=False, **_):
            return rand(*x.shape, dtype=dtype or x.dtype, requires_grad=requires_grad)

        def normal(mean=0.0, std=1.0, size=None, *, dtype=None, requires_grad=False, **_):
            if size is None:             # normal(mean_tensor, std): one draw per element
                means = mean if hasattr(mean, "shape") else std
                size = tuple(means.shape)
                mean = mean.detach().numpy() if hasattr(mean, "numpy") else mean
                std = std.detach().numpy() if hasattr(std, "numpy") else std
            return shared.tensor(shared.rng.normal(mean, std, tuple(size)), dtype, None,
                                 requires_grad)

        def normal_(self, mean=0.0, std=1.0, **_):
            with T.no_grad():
                return self.copy_(T.tensor(shared.rng.normal(mean, std, tuple(self.shape))))

        def uniform_(self, a=0.0, b=1.0, **_):
            with T.no_grad():
                return self.copy_(T.tensor(shared.rng.uniform(a, b, tuple(self.shape))))

        for name, function in (("manual_seed", manual_seed), ("randn", randn), ("rand", rand),
                               ("randint", randint), ("randperm", randperm),
                               ("randn_like", randn_like), ("rand_like", rand_like),
                               ("normal", normal)):
            if hasattr(T, name):
                setattr(T, name, function)
        for name, method in (("normal_", normal_), ("uniform_", uniform_)):
            if hasattr(T.Tensor, name):
                setattr(T.Tensor, name, method)


# --- running the programs ------------------------------------------------------------------

class TimeLimit(BaseException):
    """(not an Exception: a program's `except Exception` does not swallow it)"""


def _on_alarm(signum, frame):
    raise TimeLimit()


def state_reset(library):
    """Whatever a program switched on is switched off again before the next one."""
    @contextlib.contextmanager
    def state_kept():
        T = importlib.import_module("torch")
        if library == "minigrad":
            from isolation import minigrad_state_kept
            with minigrad_state_kept():
                yield
        else:
            try:
                yield
            finally:
                T.set_grad_enabled(True)
                T.set_default_dtype(T.float32)
                T.autograd.set_detect_anomaly(False)
        T.set_printoptions(profile="default")
    return state_kept()


def run(path, shared):
    """What the program at `path` printed, its warnings, and how it ended."""
    shared.seed(0)
    out = io.StringIO()
    namespace = {"__name__": "__main__", "__file__": str(path)}
    code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(TIME_LIMIT)
        try:
            exec(code, namespace)
        except TimeLimit:
            print(f"[ran past {TIME_LIMIT} s]")
        except BaseException as error:      # noqa: BLE001 - how a program ends is its output
            lines = [f.lineno for f in traceback.extract_tb(error.__traceback__)
                     if f.filename == str(path)]
            message = (str(error).strip().split("\n") or [""])[0]
            print(f"[raised {type(error).__name__} at line {lines[-1] if lines else '?'}] "
                  f"{message}")
        finally:
            signal.alarm(0)
    for warning in caught:                  # (the ones a library raises for itself: not)
        if warning.filename == str(path):
            text = str(warning.message).strip().split("\n")[0]
            print(f"[warning {warning.category.__name__}] {text}", file=out)
    return out.getvalue()


def main(library, names=()):
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))      # (isolation.py)
    if library == "minigrad":
        sys.meta_path.insert(0, TorchIsMinigrad())
    T = importlib.import_module("torch")          # (minigrad itself, under the hook)
    if library == "minigrad":                     # torch.cuda.amp is minigrad.cuda's amp:
        for name, module in list(sys.modules.items()):     # (Python looks for a child of
            if name.startswith("minigrad."):               # a module in sys.modules first)
                sys.modules.setdefault("torch" + name[len("minigrad"):], module)
    shared = SharedRandom(T)
    shared.install()
    outputs = {}
    for path in sorted(PROGRAMS.glob("*.py")):
        if names and path.stem not in names:
            continue
        with state_reset(library):
            outputs[path.stem] = run(path, shared)
    return outputs


if __name__ == "__main__":
    json.dump(main(sys.argv[1], sys.argv[2:]), sys.stdout, indent=1, ensure_ascii=False)
