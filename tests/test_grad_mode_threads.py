"""Grad mode is per thread in PyTorch: four threads running independent forward and
backward passes get the gradients one thread gets alone, and the grad mode of the
thread that started them is what it was before.

With one switch for the whole process (forward turns it off while an op runs), another
thread's op could find it off: its result did not require grad, its backward failed, and
the switch could be left off afterwards.  The same test runs under PyTorch.
"""
import contextlib
import importlib.util
import pathlib
import sys
import threading

import numpy as np
import pytest

THREADS, STEPS = 4, 40


def _step(T, seed):
    """One small forward and backward pass; the gradients as numpy arrays."""
    rng = np.random.default_rng(seed)
    w = T.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    b = T.tensor(rng.standard_normal(3), requires_grad=True)
    x = T.tensor(rng.standard_normal((5, 4)))
    loss = ((x @ w + b).tanh() ** 2).sum()
    loss.backward()
    return w.grad.detach().numpy().copy(), b.grad.detach().numpy().copy()


def _run_threads(T):
    """{thread: [grads of each step]} and the errors the threads met."""
    results = {i: [] for i in range(THREADS)}
    errors = []
    barrier = threading.Barrier(THREADS)

    def work(i):
        try:
            barrier.wait()
            for step in range(STEPS):
                results[i].append(_step(T, 1000 * i + step))
        except Exception as error:          # noqa: BLE001 - reported by the test
            errors.append(f"thread {i}: {type(error).__name__}: {error}")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors


def _isolation():
    path = pathlib.Path(__file__).resolve().parent / "differential" / "isolation.py"
    spec = importlib.util.spec_from_file_location("differential_isolation", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def _frequent_thread_switches():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


@pytest.mark.parametrize("library", ["torch", "minigrad"])
def test_threads_get_single_threaded_gradients(library):
    T = pytest.importorskip(library)
    keep = contextlib.nullcontext()
    if library == "minigrad":
        keep = _isolation().minigrad_state_kept()   # a failure must not leave grad mode off
    with keep:
        expected = {i: [_step(T, 1000 * i + step) for step in range(STEPS)]
                    for i in range(THREADS)}
        before = T.is_grad_enabled()
        with _frequent_thread_switches():
            results, errors = _run_threads(T)
        after = T.is_grad_enabled()
    assert not errors, "\n".join(errors[:5])
    assert after == before
    for i in range(THREADS):
        for (gw, gb), (ew, eb) in zip(results[i], expected[i]):
            np.testing.assert_allclose(gw, ew, rtol=1e-6)
            np.testing.assert_allclose(gb, eb, rtol=1e-6)
