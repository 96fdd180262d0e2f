"""Context managers that are also decorators, as PyTorch's torch/utils/_contextlib.py.

`@torch.no_grad()` on a function runs each call inside a fresh `no_grad()`.  On a
generator function it does more than `contextlib.ContextDecorator` would: the mode
holds while the generator's own code runs (each `next`, `send`, `throw` and `close`)
and not while the caller's code runs between two of them.
"""
import functools
import inspect
import sys
import warnings


def _wrap_generator(make_context, func):
    """A generator function running each step of `func`'s generators inside `make_context()`."""

    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with make_context():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with make_context():
                        gen.close()
                    raise
                except BaseException:
                    with make_context():
                        response = gen.throw(*sys.exc_info())
                else:
                    with make_context():
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value

    return generator_context


def context_decorator(make_context, func):
    """`func` run inside `make_context()` (a fresh context each call or each step)."""
    if inspect.isclass(func):
        raise RuntimeError(
            "Cannot decorate classes; it is ambiguous whether or not only the constructor "
            "or all methods should have the context manager applied; additionally, "
            "decorating a class at definition-site will prevent use of the identifier as "
            "a conventional type.  To specify which methods to decorate, decorate each of "
            "them individually.")
    if inspect.isgeneratorfunction(func):
        return _wrap_generator(make_context, func)

    @functools.wraps(func)
    def decorate_context(*args, **kwargs):
        with make_context():
            return func(*args, **kwargs)

    return decorate_context


class _DecoratorContextManager:
    """A context manager that is also a decorator; `clone()` makes the fresh one each
    call uses."""

    def __call__(self, orig_func):
        if inspect.isclass(orig_func):
            warnings.warn(
                "Decorating classes is deprecated and will be disabled in future versions. "
                "You should only decorate functions or methods. To preserve the current "
                "behavior of class decoration, you can directly decorate the `__init__` "
                "method and nothing else.", FutureWarning, stacklevel=2)
            func = lambda *args, **kwargs: orig_func(*args, **kwargs)     # noqa: E731
        else:
            func = orig_func
        return context_decorator(self.clone, func)

    def clone(self):
        return self.__class__()
