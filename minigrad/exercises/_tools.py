"""What the checks share: the Hint they raise, answer validation, gradient diagnosis.

A check is a function `check(answer)` that returns when the answer is right
and raises `Hint(key, **params)` naming the mistake it diagnosed.  Anything
else the answer raises is translated by `_exceptions.hint_for_exception`
(minigrad's own errors are recognised: wrong number of gradients, a numpy
gradient...).  A
right answer that does not do what the lesson asks may get notes: the check
returns their keys (see `check_exp`).

Inputs are numbered from 0, as PyTorch numbers them (`ctx.needs_input_grad[0]`,
gradcheck's "with respect to input 0"): input 0 is forward's first argument
after ctx.
"""
import inspect
import itertools

import numpy as np

from .. import autograd
from ..surface import creation
from ..autograd.function import Function
from ..autograd.grad_mode import no_grad
from ..autograd.graph import saved_tensors_hooks


class Hint(Exception):
    """A diagnosed mistake: a key of a message table, and the values its text names."""

    def __init__(self, key, **params):
        super().__init__(key)
        self.key, self.params = key, params


def is_tensor(value):
    return getattr(value, "_is_minigrad_tensor", False)


def type_name(value):
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


def require_function_class(answer):
    """The answer must be a Function subclass; diagnose the usual near misses."""
    if inspect.isclass(answer) and issubclass(answer, Function) and answer is not Function:
        return answer
    if getattr(answer, "__name__", "") in ("forward", "backward", "apply"):
        raise Hint("forward_not_apply")
    if isinstance(answer, Function):
        raise Hint("instance_not_class")
    raise Hint("not_function_class", got=describe(answer))


def require_callable(answer):
    if inspect.isclass(answer) or not callable(answer):
        raise Hint("not_callable", got=describe(answer))
    return answer


def dtype_name(dtype):
    """A dtype as the hints write it: float32, not minigrad.float32 (one style everywhere)."""
    return getattr(dtype, "name", str(dtype))


def describe(value):
    """A short, safe description of any value (for messages)."""
    if inspect.isclass(value):
        return f"class {value.__name__}"
    if callable(value):
        return f"function {getattr(value, '__name__', '?')}"
    text = f"{type_name(value)} {value!r}" if isinstance(value, (int, float, str)) else type_name(value)
    return text[:60]


def as_array(tensor):
    return np.array(tensor.detach()._data, dtype=np.float64)


def require_tensor(value, where):
    if isinstance(value, np.ndarray):
        raise Hint("returned_numpy", where=where)
    if not is_tensor(value):
        raise Hint("not_a_tensor", where=where, got=describe(value))
    return value


def tolerances(dtype):
    return (1e-4, 1e-5) if dtype.itemsize <= 4 else (1e-6, 1e-8)


def close(actual, expected, dtype):
    rtol, atol = tolerances(dtype)
    return actual.shape == expected.shape and np.allclose(actual, expected, rtol, atol,
                                                          equal_nan=True)


def check_output(output, expected, where="forward", inputs=None):
    """Type, shape, dtype and values of one output against the expected one; a wrong value
    is quoted with forward's `inputs` there, when they can be read there."""
    require_tensor(output, where)
    if tuple(output.shape) != tuple(expected.shape):
        raise Hint("wrong_shape", where=where, got=list(output.shape),
                   expected=list(expected.shape))
    if output.dtype is not expected.dtype:
        raise Hint("wrong_dtype", where=where, got=dtype_name(output.dtype),
                   expected=dtype_name(expected.dtype))
    got, want = as_array(output), as_array(expected)
    if not close(got, want, expected.dtype):
        bad = first_mismatch(got, want, expected.dtype)
        numbers = _inputs_at(bad, want.shape, inputs)
        if numbers is not None:
            raise Hint("wrong_forward", where=where, index=list(bad), inputs=numbers,
                       expected=f"{want[bad]:.4g}", got=f"{got[bad]:.4g}")
        raise Hint("wrong_forward_values", where=where, index=list(bad),
                   expected=f"{want[bad]:.4g}", got=f"{got[bad]:.4g}")


def same_values(tensor, like):
    """Whether `tensor` is a tensor of `like`'s shape and values (y.detach() is y's)."""
    return (is_tensor(tensor) and tuple(tensor.shape) == tuple(like.shape)
            and close(as_array(tensor), as_array(like), like.dtype))


def first_mismatch(got, want, dtype):
    """The index of the first element of `got` that differs from `want` (same shapes)."""
    return tuple(int(i) for i in np.argwhere(~np.isclose(got, want, *tolerances(dtype),
                                                         equal_nan=True))[0])


def require_grad_fn(output, inputs):
    """An output of an input that requires grad has a grad_fn: else backward never reaches it."""
    if (is_tensor(output) and output.grad_fn is None
            and any(is_tensor(t) and t.requires_grad for t in inputs)):
        raise Hint("no_grad_fn")
    return output


def require_parameters(method, args, key):
    """A call that cannot bind to the method's parameters is diagnosed before it is made."""
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):      # no signature to read: let the call decide
        return
    try:
        signature.bind(*args)
    except TypeError:
        raise Hint(key) from None


def apply(cls, *args):
    """cls.apply(*args), diagnosing a forward whose parameters do not fit."""
    new_style = cls.setup_context is not Function.setup_context    # forward without ctx
    require_parameters(cls.forward, args if new_style else (None, *args), "forward_args")
    return cls.apply(*args)


def applied(answer):
    """The answer, a Function subclass, as a function of its inputs (what a trial calls)."""
    cls = require_function_class(answer)
    return lambda *inputs: apply(cls, *inputs)


def apply_observing_saves(cls, *args):
    """Run cls.apply(*args) and return (output, the tensors forward saved)."""
    saved = []

    def pack(tensor):
        saved.append(tensor)
        return tensor

    with saved_tensors_hooks(pack, lambda tensor: tensor):
        output = apply(cls, *args)
    return output, saved


def raw_backward(cls, node, grads):
    """Call the answer's backward directly: what it returns, before minigrad tidies it.

    The incoming gradients must come back unchanged: the engine may hand the
    same tensor to other nodes (an add passes its gradient on to both inputs).
    A list is refused as PyTorch refuses it (it counts as one gradient).
    """
    require_parameters(cls.backward, (node, *grads), "backward_args")
    before = [as_array(g) if is_tensor(g) else None for g in grads]
    with no_grad():
        result = cls.backward(node, *grads)
    if any(b is not None and not np.array_equal(as_array(g), b, equal_nan=True)
           for g, b in zip(grads, before)):
        raise Hint("modified_grad_output")
    if isinstance(result, list):
        raise Hint("backward_returned_list")
    return result if isinstance(result, tuple) else (result,)


def check_gradients(raw, inputs, expected, local, output_shape, needs_input_grad=False,
                    grad_output=None):
    """Diagnose what backward returned, one slot per input of forward; returns the keys of
    the notes a right answer gets.

    `expected[i]` is the right gradient (None where none is wanted), `local[i]`
    the gradient for an incoming gradient of ones (what forgetting it gives);
    `grad_output` (an array) what backward was given, for a hint to quote.  A
    gradient of a shape the input's shape expands to (broadcasting) is summed down, as
    PyTorch's engine sums it, and is right if the sum is (the note engine_reduced).
    """
    notes = []
    count = len(inputs)
    if len(raw) < count or any(g is not None for g in raw[count:]):
        raise Hint("wrong_num_grads", got=len(raw), expected=count)
    _diagnose_swapped(raw, inputs)
    if needs_input_grad:
        _diagnose_flags_mixed_up(raw, inputs)
    for position, (grad, tensor) in enumerate(zip(raw, inputs)):
        if not is_tensor(tensor):
            if grad is not None:
                raise Hint("grad_for_non_tensor", input=position)
            continue
        if needs_input_grad and not tensor.requires_grad:
            if grad is not None:
                raise Hint("ignored_needs_input_grad", input=position)
            continue
        if expected[position] is None:
            continue
        if grad is None:
            raise Hint("missing_grad", input=position)
        require_tensor(grad, "backward")
        shape, want = tuple(grad.shape), tuple(tensor.shape)
        if shape != want and expands_to(want, shape):
            grad = grad.detach().sum_to_size(want)       # what the engine does with it
            if "engine_reduced" not in notes:
                notes.append("engine_reduced")
        elif shape != want:
            key = "not_reduced_broadcast" if shape == tuple(output_shape) else "wrong_grad_shape"
            if key == "wrong_grad_shape" and np.prod(shape) == np.prod(want):
                key = "size_one_dims"       # (4,) for (4, 1): keepdim
            raise Hint(key, input=position, got=list(shape), expected=list(want))
        diagnose_values(as_array(grad), expected[position], local[position], position,
                        as_array(tensor), tensor.dtype, inputs, grad_output)
    return tuple(notes)


def expands_to(shape, target):
    """Whether a tensor of `shape` broadcasts to `target`: then the engine accepts a
    gradient of shape `target` for it and sums it down (PyTorch's is_expandable_to)."""
    if len(shape) > len(target):
        return False
    return all(small in (1, large) for small, large in zip(reversed(shape), reversed(target)))


def _diagnose_swapped(raw, inputs):
    """Two gradients whose shapes fit each other's inputs, not their own: the order."""
    shapes = [tuple(g.shape) if is_tensor(g) else None for g in raw[:len(inputs)]]
    wanted = [tuple(t.shape) if is_tensor(t) else None for t in inputs]
    for i, j in itertools.combinations(range(len(inputs)), 2):
        if (None not in (shapes[i], shapes[j]) and wanted[i] != wanted[j]
                and shapes[i] == wanted[j] and shapes[j] == wanted[i]):
            raise Hint("grads_swapped", first=i, second=j)


def _diagnose_flags_mixed_up(raw, inputs):
    """None where a gradient is needed, a gradient where none is: the flags' indices."""
    wanted = [is_tensor(t) and t.requires_grad for t in inputs]
    missing = [i for i, g in enumerate(raw[:len(inputs)]) if wanted[i] and g is None]
    extra = [i for i, g in enumerate(raw[:len(inputs)])
             if is_tensor(inputs[i]) and not wanted[i] and g is not None]
    if missing and extra:
        raise Hint("needs_input_grad_mixed_up", input=missing[0], other=extra[0])


def diagnose_values(got, expected, local, position, values, dtype, inputs=None,
                    grad_output=None):
    """Right values, or which typical mistake: no grad_output, sign, factor; else one
    element where it goes wrong.  `values` and `dtype` are input `position`'s; with
    forward's `inputs` (tensors, arrays of their values before forward, numbers) and the
    `grad_output` array, the hint quotes every number that gradient is made of, so that
    the student can redo it on paper."""
    if close(got, expected, dtype):
        return
    if local is not None and close(got, local, dtype):
        raise Hint("forgot_grad_output", input=position)
    if close(got, -expected, dtype):
        raise Hint("wrong_sign", input=position)
    big = np.abs(expected) > 1e-3
    if big.any():
        ratios = got[big] / expected[big]
        factor = float(np.median(ratios))
        if factor != 0 and close(got, factor * expected, dtype):
            raise Hint("wrong_factor", input=position, factor=f"{factor:.3g}")
    index = first_mismatch(got, expected, dtype)
    made_of = _numbers_at(index, values.shape, inputs, grad_output)
    if made_of is None:             # a broadcast input: its gradient sums grad_output
        raise Hint("wrong_grad_broadcast", input=position, index=list(index), value=f"{values[index]:.4g}",
                   got=f"{got[index]:.4g}", expected=f"{expected[index]:.4g}")
    numbers, incoming = made_of
    raise Hint("wrong_grad", input=position, index=list(index), inputs=numbers,
               grad_output=incoming, got=f"{got[index]:.4g}", expected=f"{expected[index]:.4g}")


def _numbers_at(index, shape, inputs, grad_output):
    """("(x, y, ...)", "g"): forward's inputs at `index` (`_inputs_at`) and grad_output
    there; None when one cannot be read there (grad_output of another shape)."""
    numbers = _inputs_at(index, shape, inputs)
    if numbers is None or grad_output is None or np.shape(grad_output) != shape:
        return None
    return numbers, f"{float(np.asarray(grad_output)[index]):.4g}"


def _inputs_at(index, shape, inputs):
    """"(x, y, ...)": forward's inputs at `index` of an array of `shape` (a number as it is,
    a tensor of that shape at `index`, a one-element tensor's value); None when one cannot
    be read there (a broadcast input)."""
    if inputs is None:
        return None
    numbers = []
    for value in inputs:
        if is_tensor(value):
            value = as_array(value)
        if isinstance(value, np.ndarray):
            if value.shape == shape:
                value = value[index]
            elif value.size == 1:
                value = value.reshape(())
            else:
                return None
        if not isinstance(value, (int, float, bool, np.number, np.ndarray)):
            return None
        numbers.append(f"{float(value):.4g}")
    return f"({', '.join(numbers)})"


def expected_grads(spec, inputs, grad_output):
    """The gradients of `spec(*inputs)` for `grad_output`, and for ones (the local ones), as
    minigrad's autograd computes them through its built-in ops."""
    wanted = [t for t in inputs if is_tensor(t) and t.requires_grad]
    results = []
    for seed in (grad_output, creation.ones_like(grad_output)):
        out = spec(*inputs)
        grads = iter(autograd.grad(out, wanted, seed))
        results.append([as_array(next(grads)) if is_tensor(t) and t.requires_grad else None
                        for t in inputs])
    return results


def snapshot(inputs):
    return [as_array(t) if is_tensor(t) else None for t in inputs]


def require_unchanged(inputs, before):
    for tensor, values in zip(inputs, before):
        if values is not None and not np.array_equal(as_array(tensor), values, equal_nan=True):
            raise Hint("input_modified")


def check_function(answer, spec, cases, needs_input_grad=False, seed=0):
    """The usual check of a one-output Function: forward, raw backward, then the engine.
    Returns the keys of the notes a right answer gets (see check_gradients).

    `spec(*inputs)` is what the Function must compute, written with minigrad's built-in
    ops: its output and, through minigrad's autograd, its gradients are the expected
    ones.  `cases` are functions returning fresh input tuples (tensors and numbers).
    """
    cls = require_function_class(answer)
    notes = []
    generator = np.random.default_rng(seed)
    for make_inputs in cases:
        inputs = make_inputs()
        before = snapshot(inputs)
        output = apply(cls, *inputs)
        require_unchanged(inputs, before)
        with no_grad():
            expected_output = spec(*make_inputs())
        check_output(output, expected_output, inputs=make_inputs())
        require_grad_fn(output, inputs)
        grad_output = creation.tensor(generator.uniform(-2, 2, size=output.shape),
                                      dtype=output.dtype)
        expected, local = expected_grads(spec, inputs, grad_output)
        raw = raw_backward(cls, output.grad_fn, (grad_output,))
        for note in check_gradients(raw, inputs, expected, local, output.shape,
                                    needs_input_grad, as_array(grad_output)):
            if note not in notes:
                notes.append(note)
        check_through_engine(output, inputs, grad_output, expected)
    return tuple(notes)


def check_through_engine(output, inputs, grad_output, expected):
    """Backward once more, by the engine this time: what a student's training loop does.

    The node already ran once (called directly), so a backward that modified
    a saved tensor in place is caught here by the version check.
    """
    output.backward(grad_output)
    for position, tensor in enumerate(inputs):
        if is_tensor(tensor) and tensor.requires_grad and expected[position] is not None:
            if tensor.grad is None:
                raise Hint("missing_grad", input=position)
            diagnose_values(as_array(tensor.grad), expected[position], None, position,
                            as_array(tensor), tensor.dtype, inputs, as_array(grad_output))


def case(*shapes, dtype="float64", seed=0, requires_grad=True, extra=(), low=-2.0, high=2.0):
    """A function making fresh input tensors (same values each call), then `extra` values.

    `requires_grad` is one bool for all tensors or one per shape.
    """
    generator = np.random.default_rng(seed)
    arrays = [generator.uniform(low, high, size=shape) for shape in shapes]
    flags = requires_grad if isinstance(requires_grad, (tuple, list)) else [requires_grad] * len(shapes)
    return values_case(arrays, dtype, flags, extra)


def values_case(arrays, dtype="float64", requires_grad=True, extra=()):
    """Like `case`, with the values given."""
    flags = requires_grad if isinstance(requires_grad, (tuple, list)) else [requires_grad] * len(arrays)

    def make_inputs():
        tensors = tuple(creation.tensor(np.array(a, dtype=dtype), requires_grad=flag)
                        for a, flag in zip(arrays, flags))
        return tensors + tuple(extra)
    return make_inputs
