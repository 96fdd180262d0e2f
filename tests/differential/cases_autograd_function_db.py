"""PyTorch's own tests as the spec: torch/testing/_internal/autograd_function_db.py.

That file (it ships in the torch wheel) is a collection of custom autograd.Functions
written as OpInfos: saving inputs, outputs, intermediates and non-tensors; numpy
inside forward; mark_dirty, mark_non_differentiable, once_differentiable;
setup_context; forward AD (jvp) and vmap rules.  Each entry's Function is written
again below for both libraries (``_functions(T)``), and each case runs what
PyTorch's OpInfo-based tests (test_ops: test_fn_grad, test_fn_gradgrad,
test_forward_mode_AD, test_fn_fwgrad_bwgrad) do with it, in float64, on a sample
input drawn the way the entry's sample function draws it (make_tensor's
``low``/``high``, here from a seeded numpy generator):

- the forward values;
- the gradients of the sum of the differentiable outputs;
- gradcheck, gradgradcheck (when the entry supports it), gradcheck with forward AD
  (when ``supports_forward_ad``), and gradgradcheck forward-over-reverse (when
  ``supports_fwgrad_bwgrad``).

Left out: the ``vmap`` staticmethods and ``generate_vmap_rule`` (torch.func / vmap is
outside minigrad), and the dtypes other than float64 (the grad tests use float64
only).  Cases that still differ are listed in tests/test_differential.py
(PORTED_FAILING).
"""
import importlib

import numpy as np


def _module(T, name):
    return importlib.import_module(f"{T.__name__}.{name}")


def _make(T, *shape, low=-9.0, high=9.0, seed=0, requires_grad=True):
    """make_tensor(shape, dtype=float64, low, high), from numpy with a fixed seed."""
    data = np.random.default_rng(seed).uniform(low, high, shape)
    return T.tensor(data, dtype=T.float64, requires_grad=requires_grad)


_CACHE = {}


def _functions(T):
    """The Functions of autograd_function_db, written for `T`."""
    if T.__name__ in _CACHE:
        return _CACHE[T.__name__]
    once_differentiable = _module(T, "autograd.function").once_differentiable

    def to_numpy(tensor):
        return tensor.cpu().numpy()

    class NumpyCube(T.autograd.Function):
        @staticmethod
        def forward(input):
            input_np = to_numpy(input)
            dinput = T.tensor(3 * input_np ** 2, device=input.device)
            return T.tensor(input_np ** 3, device=input.device), dinput

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0], output[1])
            ctx.save_for_forward(inputs[0], output[1])

        @staticmethod
        def backward(ctx, grad_output, grad_saved):
            input, dinput = ctx.saved_tensors
            return NumpyMul.apply(grad_output, dinput) + 6 * NumpyMul.apply(grad_saved, input)

        @staticmethod
        def jvp(ctx, input_tangent):
            input, dinput = ctx.saved_tensors
            return (NumpyMul.apply(input_tangent, dinput),
                    6 * NumpyMul.apply(input_tangent, input))

    class CubeGenVmap(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x ** 3, 3 * x ** 2

        @staticmethod
        def setup_context(ctx, inputs, outputs):
            ctx.save_for_backward(inputs[0], outputs[1])
            ctx.save_for_forward(inputs[0], outputs[1])

        @staticmethod
        def backward(ctx, grad_output, grad_saved):
            _input, dinput = ctx.saved_tensors
            return grad_output * dinput + 6 * dinput

        @staticmethod
        def jvp(ctx, input_tangent):
            input, dinput = ctx.saved_tensors
            return (MulGenVmap.apply(input_tangent, dinput),
                    6 * NumpyMul.apply(input_tangent, input))

    class NumpyCubeNotComposable(T.autograd.Function):
        @staticmethod
        def forward(input):
            input_np = to_numpy(input)
            return T.tensor(input_np ** 3, device=input.device), input_np

        @staticmethod
        def setup_context(ctx, inputs, output):
            _, input_np = output
            ctx.input_np = input_np
            ctx.device = inputs[0].device

        @staticmethod
        @once_differentiable
        def backward(ctx, grad_output, grad_saved):
            return T.tensor(3 * (ctx.input_np ** 2), device=ctx.device)

    class NumpyMul(T.autograd.Function):
        @staticmethod
        def forward(x, y):
            return T.tensor(to_numpy(x) * to_numpy(y), device=x.device)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)
            ctx.save_for_forward(*inputs)

        @staticmethod
        def backward(ctx, grad_output):
            x, y = ctx.saved_tensors
            gx = NumpyMul.apply(grad_output, y) if ctx.needs_input_grad[0] else None
            gy = NumpyMul.apply(grad_output, x) if ctx.needs_input_grad[1] else None
            return gx, gy

        @staticmethod
        def jvp(ctx, x_tangent, y_tangent):
            x, y = ctx.saved_tensors
            return x_tangent * y + y_tangent * x

    class MulGenVmap(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x, y):
            return x * y

        @staticmethod
        def setup_context(ctx, inputs, outputs):
            ctx.save_for_backward(*inputs)
            ctx.save_for_forward(*inputs)

        @staticmethod
        def backward(ctx, grad_output):
            x, y = ctx.saved_tensors
            gx = MulGenVmap.apply(grad_output, y) if ctx.needs_input_grad[0] else None
            gy = MulGenVmap.apply(grad_output, x) if ctx.needs_input_grad[1] else None
            return gx, gy

        @staticmethod
        def jvp(ctx, x_tangent, y_tangent):
            x, y = ctx.saved_tensors
            return x_tangent * y + y_tangent * x

    class NumpyExp_(T.autograd.Function):
        @staticmethod
        def forward(x):
            x_np = to_numpy(x)
            np.exp(x_np, x_np)
            return x

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, = inputs
            ctx.mark_dirty(x)
            ctx.save_for_backward(output)
            ctx.save_for_forward(output)

        @staticmethod
        def backward(ctx, grad_output):
            output, = ctx.saved_tensors
            return NumpyMul.apply(grad_output, output)

        @staticmethod
        def jvp(ctx, x_tangent):
            output, = ctx.saved_tensors
            x_tangent.mul_(output)
            return x_tangent

    class NumpySort(T.autograd.Function):
        @staticmethod
        def forward(x, dim):
            device = x.device
            x = to_numpy(x)
            ind = np.argsort(x, axis=dim)
            ind_inv = np.argsort(ind, axis=dim)
            return (T.tensor(x, device=device), T.tensor(ind, device=device),
                    T.tensor(ind_inv, device=device))

        @staticmethod
        def setup_context(ctx, inputs, output):
            _x, dim = inputs
            _, ind, ind_inv = output
            ctx.mark_non_differentiable(ind, ind_inv)
            ctx.save_for_backward(ind, ind_inv)
            ctx.save_for_forward(ind, ind_inv)
            ctx.dim = dim

        @staticmethod
        def backward(ctx, grad_output, _0, _1):
            ind, ind_inv = ctx.saved_tensors
            return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None

        @staticmethod
        def jvp(ctx, x_tangent, _):
            ind, ind_inv = ctx.saved_tensors
            return NumpyTake.apply(x_tangent, ind, ind_inv, ctx.dim), None, None

    class SortGenVmap(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x, dim):
            ind = T.argsort(x, dim=dim)
            ind_inv = T.argsort(ind, axis=dim)
            result = T.take_along_dim(x, ind, dim=dim)
            return result, ind, ind_inv

        @staticmethod
        def setup_context(ctx, inputs, outputs):
            x, dim = inputs
            _, ind, ind_inv = outputs
            ctx.mark_non_differentiable(ind, ind_inv)
            ctx.save_for_backward(ind, ind_inv)
            ctx.save_for_forward(ind, ind_inv)
            ctx.dim = dim

        @staticmethod
        def backward(ctx, grad_output, _0, _1):
            ind, ind_inv = ctx.saved_tensors
            return TakeGenVmap.apply(grad_output, ind_inv, ind, ctx.dim), None

        @staticmethod
        def jvp(ctx, x_tangent, _):
            ind, ind_inv = ctx.saved_tensors
            return TakeGenVmap.apply(x_tangent, ind, ind_inv, ctx.dim), None, None

    class NumpyTake(T.autograd.Function):
        @staticmethod
        def forward(x, ind, ind_inv, dim):
            device = x.device
            return T.tensor(np.take_along_axis(to_numpy(x), to_numpy(ind), dim), device=device)

        @staticmethod
        def setup_context(ctx, inputs, output):
            _x, ind, ind_inv, dim = inputs
            ctx.save_for_backward(ind, ind_inv)
            ctx.save_for_forward(ind, ind_inv)
            ctx.dim = dim

        @staticmethod
        def backward(ctx, grad_output):
            ind, ind_inv = ctx.saved_tensors
            return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None, None, None

        @staticmethod
        def jvp(ctx, x_tangent, ind_tangent, ind_inv_tangent, _):
            if ind_tangent is not None or ind_inv_tangent is not None:
                raise AssertionError("Expected the tangents of the indices to be None")
            ind, ind_inv = ctx.saved_tensors
            return NumpyTake.apply(x_tangent, ind, ind_inv, ctx.dim)

    class TakeGenVmap(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x, ind, ind_inv, dim):
            return T.take_along_dim(x, ind, dim)

        @staticmethod
        def setup_context(ctx, inputs, outputs):
            _x, ind, ind_inv, dim = inputs
            ctx.save_for_backward(ind, ind_inv)
            ctx.save_for_forward(ind, ind_inv)
            ctx.dim = dim

        @staticmethod
        def backward(ctx, grad_output):
            ind, ind_inv = ctx.saved_tensors
            return TakeGenVmap.apply(grad_output, ind_inv, ind, ctx.dim), None, None, None

        @staticmethod
        def jvp(ctx, x_tangent, ind_tangent, ind_inv_tangent, _):
            ind, ind_inv = ctx.saved_tensors
            return TakeGenVmap.apply(x_tangent, ind, ind_inv, ctx.dim)

    class Select(T.autograd.Function):
        @staticmethod
        def forward(x, idx):
            return x[idx]

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, idx = inputs
            ctx.x_shape = x.shape
            ctx.idx = idx

        @staticmethod
        def backward(ctx, grad_output):
            result = grad_output.new_zeros(ctx.x_shape)
            result[ctx.idx] = grad_output
            return result, None

        @staticmethod
        def jvp(ctx, x_tangent, _):
            return Select.apply(x_tangent, ctx.idx)

    class SelectGenVmap(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x, idx):
            return x[idx]

        @staticmethod
        def setup_context(ctx, inputs, outputs):
            x, idx = inputs
            ctx.x_shape = x.shape
            ctx.idx = idx

        @staticmethod
        def backward(ctx, grad_output):
            result = grad_output.new_zeros(ctx.x_shape)
            result[ctx.idx] = grad_output
            return result, None

        @staticmethod
        def jvp(ctx, x_tangent, _):
            return SelectGenVmap.apply(x_tangent, ctx.idx)

    class ScaleGradGenVmap(T.autograd.Function):
        generate_vmap_rule = True
        scale = 3.14

        @staticmethod
        def forward(x):
            return x.clone()

        @staticmethod
        def setup_context(ctx, inputs, outputs):
            pass

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ScaleGradGenVmap.scale

        @staticmethod
        def jvp(ctx, x_tangent):
            return x_tangent * ScaleGradGenVmap.scale

    class ZeroGradientsGenVmap(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x, y):
            return x.clone(), y.clone()

        @staticmethod
        def setup_context(ctx, inputs, outputs):
            pass

        @staticmethod
        def backward(ctx, gx, gy):
            return (T.zeros(3, 4, *gx.shape, dtype=gx.dtype, device=gx.device),
                    T.zeros(gy.shape, dtype=gy.dtype, device=gy.device))

        @staticmethod
        def jvp(ctx, gx, gy):
            return (T.zeros(gx.shape, dtype=gx.dtype, device=gx.device),
                    T.zeros(gy.shape, dtype=gy.dtype, device=gy.device))

    class ForwardHasDefaultArgs(T.autograd.Function):
        @staticmethod
        def forward(x, idx=(2,)):
            return x[idx]

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, idx = inputs
            ctx.x_shape = x.shape
            ctx.idx = idx

        @staticmethod
        def backward(ctx, grad_output):
            result = grad_output.new_zeros(ctx.x_shape)
            result[ctx.idx] = grad_output
            return result, None

        @staticmethod
        def jvp(ctx, x_tangent, _):
            return ForwardHasDefaultArgs.apply(x_tangent, ctx.idx)

    _CACHE[T.__name__] = dict(locals())
    return _CACHE[T.__name__]


# --- the sample inputs of the entries ------------------------------------------------------

def _cube_sample(T):
    return (_make(T, 1, low=0.8, high=2),)


def _mul_sample(T):
    return (_make(T, 4, low=0.9, high=2, seed=1), _make(T, 3, 4, low=0.9, high=2, seed=2))


def _sort_sample(T):
    return (_make(T, 3, 5), 1)


def _take_sample(T):
    tensor = _make(T, 3, 5)
    _, ind, ind_inv = _functions(T)["NumpySort"].apply(tensor, 1)
    return (tensor, ind, ind_inv, 1)


def _select_sample(T):
    return (_make(T, 3, 5), 2)


def _default_args_sample(T):
    return (_make(T, 3, 5),)


def _check(T, rec, op, args, forward_ad, fwgrad_bwgrad, wrapper=None):
    """What the OpInfo-based grad tests check for one entry."""
    def fn(*inputs):
        out = op(*inputs)
        return wrapper(*out) if wrapper is not None else out

    gradcheck, gradgradcheck = T.autograd.gradcheck, T.autograd.gradgradcheck
    out = op(*args)
    rec("forward", out)
    outs = [o for o in (out if isinstance(out, tuple) else (out,))
            if isinstance(o, T.Tensor) and o.requires_grad]
    inputs = [a for a in args if isinstance(a, T.Tensor) and a.requires_grad]
    rec("grads", T.autograd.grad([o.sum() for o in outs], inputs, allow_unused=True))
    with rec.raises(name="gradcheck raises"):
        rec("gradcheck", gradcheck(fn, args, check_batched_grad=False))
    with rec.raises(name="gradgradcheck raises"):
        rec("gradgradcheck", gradgradcheck(fn, args, check_batched_grad=False))
    if forward_ad:
        with rec.raises(name="forward AD raises"):
            rec("forward AD", gradcheck(fn, args, check_forward_ad=True, check_backward_ad=False,
                                        check_undefined_grad=False, check_batched_grad=False))
    if fwgrad_bwgrad:
        with rec.raises(name="forward over reverse raises"):
            rec("forward over reverse", gradgradcheck(fn, args, check_fwd_over_rev=True,
                                                      check_rev_over_rev=False,
                                                      check_undefined_grad=False,
                                                      check_batched_grad=False))


# --- one case per entry of autograd_function_db -------------------------------------------

def case_NumpyCubeAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["NumpyCube"].apply, _cube_sample(T), True, True)


def case_NumpyExpMarkDirtyAutogradFunction(T, rec):
    NumpyExp_ = _functions(T)["NumpyExp_"]
    _check(T, rec, lambda x: NumpyExp_.apply(x.clone()), _cube_sample(T), True, True)


def case_NumpyExpMarkDirtyAutogradFunction_inplace_variant(T, rec):
    NumpyExp_ = _functions(T)["NumpyExp_"]
    x, = _cube_sample(T)
    y = x.clone()
    version = y._version
    out = NumpyExp_.apply(y)
    rec("returns its input", out is y)
    rec("version bumped", y._version > version)
    rec("value", out)
    rec("grad_fn", out.grad_fn.name())
    out.sum().backward()
    rec("grad", x.grad)


def case_NumpyMulAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["NumpyMul"].apply, _mul_sample(T), True, True)


def case_NumpyCubeNotComposableAutogradFunction(T, rec):
    NumpyCubeNotComposable = _functions(T)["NumpyCubeNotComposable"]
    _check(T, rec, lambda x: NumpyCubeNotComposable.apply(x)[0], _cube_sample(T), False, False)


def case_NumpySortAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["NumpySort"].apply, _sort_sample(T), False, False,
           wrapper=lambda y, ind, ind_inv: y)


def case_NumpyTakeAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["NumpyTake"].apply, _take_sample(T), False, False)


def case_SelectAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["Select"].apply, _select_sample(T), True, True)


def case_CubeGenVmapAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["CubeGenVmap"].apply, _cube_sample(T), True, True)


def case_MulGenVmapAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["MulGenVmap"].apply, _mul_sample(T), True, True)


def case_SortGenVmapAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["SortGenVmap"].apply, _sort_sample(T), True, True,
           wrapper=lambda y, ind, ind_inv: y)


def case_SelectGenVmapAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["SelectGenVmap"].apply, _select_sample(T), True, True)


def case_ScaleGradGenVmapAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["ScaleGradGenVmap"].apply, _cube_sample(T), True, True)


def case_ZeroGradientsGenVmapAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["ZeroGradientsGenVmap"].apply, _mul_sample(T), True, True)


def case_ForwardHasDefaultArgsAutogradFunction(T, rec):
    _check(T, rec, _functions(T)["ForwardHasDefaultArgs"].apply, _default_args_sample(T),
           True, True)


def case_generate_vmap_rule_attributes(T, rec):
    fns = _functions(T)
    rec("generate_vmap_rule", {name: getattr(fns[name], "generate_vmap_rule", "missing")
                               for name in ("NumpyCube", "CubeGenVmap", "NumpyMul", "MulGenVmap",
                                            "SortGenVmap", "Select", "SelectGenVmap")})
