"""Every built-in op against finite differences (gradcheck, gradgradcheck), and
against PyTorch (forward values and first gradients) where PyTorch is installed.

Each case is `fn(T, *tensors)`, written once for both libraries: `T` is the
module (minigrad, or torch for the comparison), the tensors are float64.
Inputs are chosen away from the points where an op is not differentiable:
relu/abs/sign/clamp away from their kinks, max/min/maximum without ties.
"""
import math

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(20240611)


# --- inputs ----------------------------------------------------------------------

def uniform(*shape):
    """Anywhere in [-1, 1]: for ops that are smooth everywhere."""
    return RNG.uniform(-1.0, 1.0, shape)


def positive(*shape):
    """In [0.5, 2]: log, sqrt, a divisor, the base of a tensor power."""
    return RNG.uniform(0.5, 2.0, shape)


def nonzero(*shape):
    """|x| in [0.2, 1]: relu, abs, sign, 1 / x (away from the kink at 0)."""
    return RNG.uniform(0.2, 1.0, shape) * RNG.choice([-1.0, 1.0], shape)


def distinct(*shape):
    """All values at least 0.1 apart: max / min without ties."""
    n = math.prod(shape)
    values = np.linspace(-1.0, 1.0, n) * 0.1 * n + RNG.uniform(-0.01, 0.01, n)
    return RNG.permutation(values).reshape(shape)


def spread(*shape):
    """Values in +-[0.1, 0.4] or +-[0.6, 1.2]: away from 0 and +-0.5 (clamp bounds)."""
    magnitude = np.where(RNG.random(shape) < 0.5, RNG.uniform(0.1, 0.4, shape),
                         RNG.uniform(0.6, 1.2, shape))
    return magnitude * RNG.choice([-1.0, 1.0], shape)


A34 = uniform(3, 4)
MASK34 = RNG.random((3, 4)) < 0.5
COND34 = RNG.random((3, 4)) < 0.5
MAX_A = uniform(3, 4)
MAX_B = MAX_A + nonzero(3, 4)          # |a - b| >= 0.2 everywhere: no ties
MAX_ROW = uniform(4)
MAX_MATRIX = MAX_ROW + nonzero(3, 4)   # broadcast against the row, still no ties


# --- helpers used inside the cases (they run under minigrad and torch alike) -------

def inplace(y, method, *args, **kwargs):
    """y.method(*args) (y.mul_(v) ...), then y: the in-place op's output is y itself."""
    getattr(y, method)(*args, **kwargs)
    return y


def setitem(y, index, value):
    y[index] = value
    return y


def case(name, fn, *inputs, **options):
    """One parametrized case: `fn(T, *tensors)` on float64 copies of `inputs`.

    options: gradgrad=False skips gradgradcheck; check={...} passes tolerances.
    """
    return pytest.param(fn, inputs, options, id=name)


CASES = [
    # arithmetic: tensor-tensor (broadcasting), tensor-number, number-tensor
    case("add", lambda T, a, b: a + b, uniform(3, 4), uniform(3, 4)),
    case("add_broadcast", lambda T, a, b: a + b, uniform(3, 4), uniform(4)),
    case("add_broadcast_both", lambda T, a, b: a + b, uniform(3, 1), uniform(1, 4)),
    case("add_broadcast_0d", lambda T, a, b: a + b, uniform(2, 3), uniform()),
    case("add_alpha", lambda T, a, b: a.add(b, alpha=2.5), uniform(3, 4), uniform(4)),
    case("add_number", lambda T, x: x + 2.5, uniform(3, 4)),
    case("radd_number", lambda T, x: 2.5 + x, uniform(3, 4)),
    case("sub_broadcast", lambda T, a, b: a - b, uniform(2, 3, 4), uniform(3, 1)),
    case("sub_alpha", lambda T, a, b: a.sub(b, alpha=3), uniform(3, 4), uniform(3, 4)),
    case("sub_number", lambda T, x: x - 2.5, uniform(3, 4)),
    case("rsub_number", lambda T, x: 2 - x, uniform(3, 4)),
    case("mul", lambda T, a, b: a * b, uniform(3, 4), uniform(3, 4)),
    case("mul_broadcast", lambda T, a, b: a * b, uniform(2, 3, 4), uniform(3, 1)),
    case("mul_same_tensor", lambda T, x: x * x, uniform(3, 4)),
    case("mul_number", lambda T, x: x * 1.5, uniform(3, 4)),
    case("rmul_number", lambda T, x: 1.5 * x, uniform(3, 4)),
    case("div", lambda T, a, b: a / b, uniform(3, 4), positive(3, 4)),
    case("div_broadcast", lambda T, a, b: a / b, uniform(3, 4), positive(4)),
    case("div_broadcast_numerator", lambda T, a, b: a / b, uniform(4), nonzero(3, 4)),
    case("div_number", lambda T, x: x / 4.0, uniform(3, 4)),
    case("rdiv_one", lambda T, x: 1 / x, nonzero(3, 4)),
    case("rdiv_number", lambda T, x: 2.5 / x, nonzero(3, 4)),
    case("neg", lambda T, x: -x, uniform(3, 4)),
    case("pow_int", lambda T, x: x ** 3, uniform(3, 4)),
    case("pow_two", lambda T, x: x.pow(2), uniform(3, 4)),
    case("pow_fraction", lambda T, x: x ** 2.5, positive(3, 4)),
    case("pow_negative", lambda T, x: x ** -1.5, positive(3, 4)),
    case("pow_zero", lambda T, x: x ** 0, uniform(3, 4)),
    case("pow_tensor", lambda T, a, b: a ** b, positive(3, 4), uniform(3, 4)),
    case("pow_tensor_broadcast", lambda T, a, b: a.pow(b), positive(3, 4), uniform(4)),
    case("rpow_number", lambda T, x: 2 ** x, uniform(3, 4)),
    case("rpow_fraction", lambda T, x: 0.5 ** x, uniform(3, 4)),
    case("reciprocal", lambda T, x: x.reciprocal(), nonzero(3, 4)),
    # matmul in all its forms
    case("matmul_1d_1d", lambda T, a, b: a @ b, uniform(4), uniform(4)),
    case("mv", lambda T, a, v: T.mv(a, v), uniform(3, 4), uniform(4)),
    case("bmm", lambda T, a, b: a.bmm(b), uniform(2, 3, 4), uniform(2, 4, 2)),
    case("matmul_2d_1d", lambda T, a, b: a @ b, uniform(3, 4), uniform(4)),
    case("matmul_1d_2d", lambda T, a, b: a @ b, uniform(3), uniform(3, 4)),
    case("matmul_2d_2d", lambda T, a, b: a @ b, uniform(2, 3), uniform(3, 4)),
    case("matmul_3d_3d", lambda T, a, b: a @ b, uniform(2, 3, 4), uniform(2, 4, 2)),
    case("matmul_3d_2d", lambda T, a, b: a @ b, uniform(2, 3, 4), uniform(4, 2)),
    case("matmul_2d_3d", lambda T, a, b: a @ b, uniform(3, 4), uniform(2, 4, 2)),
    case("matmul_3d_1d", lambda T, a, b: a @ b, uniform(2, 3, 4), uniform(4)),
    case("matmul_1d_3d", lambda T, a, b: a @ b, uniform(3), uniform(2, 3, 4)),
    case("matmul_batch_broadcast", lambda T, a, b: a @ b, uniform(2, 1, 3, 4), uniform(3, 4, 2)),
    case("matmul_function", lambda T, a, b: T.matmul(a, b), uniform(2, 3), uniform(3, 4)),
    case("mm", lambda T, a, b: T.mm(a, b), uniform(2, 3), uniform(3, 4)),
    case("mm_method", lambda T, a, b: a.mm(b), uniform(2, 3), uniform(3, 4)),
    case("dot", lambda T, a, b: a.dot(b), uniform(4), uniform(4)),
    case("addmm", lambda T, c, a, b: T.addmm(c, a, b), uniform(4), uniform(2, 3), uniform(3, 4)),
    case("addmm_scaled", lambda T, c, a, b: c.addmm(a, b, beta=0.5, alpha=-2.0),
         uniform(2, 4), uniform(2, 3), uniform(3, 4)),
    case("index_add", lambda T, x, s: x.index_add(0, T.tensor([2, 0, 2]), s, alpha=1.5),
         uniform(3, 4), uniform(3, 4)),
    case("index_add_dim1", lambda T, x, s: T.index_add(x, 1, T.tensor([1, 3]), s),
         uniform(3, 4), uniform(3, 2)),
    case("index_add_", lambda T, x, s: inplace(x * 1, "index_add_", 0, T.tensor([1]), s),
         uniform(3, 4), uniform(1, 4)),
    case("hardtanh", lambda T, x: T.nn.functional.hardtanh(x, -0.5, 0.5), spread(3, 4)),
    case("scatter", lambda T, x, s: x.scatter(1, T.tensor([[0, 2], [1, 3], [3, 0]]), s),
         uniform(3, 4), uniform(3, 2)),
    case("scatter_value", lambda T, x: T.scatter(x, 0, T.tensor([[2, 0, 1, 0]]), 1.5),
         uniform(3, 4)),
    case("scatter_add", lambda T, x, s: x.scatter_add(1, T.tensor([[0, 0], [1, 3], [3, 3]]), s),
         uniform(3, 4), uniform(3, 2)),
    case("scatter_", lambda T, x, s: inplace(x * 1, "scatter_", 0, T.tensor([[1, 0, 2, 1]]), s),
         uniform(3, 4), uniform(1, 4)),
    case("addcmul", lambda T, x, a, b: T.addcmul(x, a, b, value=-0.5), uniform(3, 4),
         uniform(3, 4), uniform(4)),
    case("addcdiv", lambda T, x, a, b: x.addcdiv(a, b, value=2), uniform(3, 4), uniform(3, 4),
         positive(3, 4)),
    case("addcmul_", lambda T, x, a, b: inplace(x * 1, "addcmul_", a, b, value=2),
         uniform(3, 4), uniform(3, 4), uniform(3, 4)),
    case("lerp", lambda T, a, b: T.lerp(a, b, 0.3), uniform(3, 4), uniform(3, 4)),
    case("lerp_tensor", lambda T, a, b, w: a.lerp(b, w), uniform(3, 4), uniform(4), uniform(3, 4)),
    case("lerp_", lambda T, a, b: inplace(a * 1, "lerp_", b, 0.25), uniform(3, 4), uniform(3, 4)),
    case("cumprod", lambda T, x: T.cumprod(x, 1), nonzero(3, 4)),
    case("cumprod_zero", lambda T, x: (x * T.tensor([1.0, 0.0, 1.0, 1.0], dtype=x.dtype))
         .cumprod(1), nonzero(3, 4)),
    case("rsqrt", lambda T, x: T.rsqrt(x), positive(3, 4)),
    case("nan_to_num", lambda T, x: T.nan_to_num(x.log()), positive(3, 4)),
    case("einsum_matmul", lambda T, a, b: T.einsum("ij,jk->ik", a, b), uniform(2, 3),
         uniform(3, 4)),
    case("einsum_batch_ellipsis", lambda T, a, b: T.einsum("...ij,...jk", a, b),
         uniform(2, 2, 3), uniform(2, 3, 2)),
    case("einsum_trace_outer", lambda T, a, b: T.einsum("i,j->ij", a, b), uniform(3), uniform(4)),
    case("einsum_sum", lambda T, a: T.einsum("ij->", a), uniform(2, 3)),
    case("masked_select", lambda T, x: x.masked_select(T.tensor([True, False, True, True])),
         uniform(3, 4)),
    case("repeat_interleave", lambda T, x: x.repeat_interleave(2, dim=1), uniform(3, 4)),
    case("cross", lambda T, a, b: T.linalg.cross(a, b), uniform(4, 3), uniform(4, 3)),
    case("logsigmoid", lambda T, x: T.nn.functional.logsigmoid(x * 3), uniform(3, 4)),
    case("elu", lambda T, x: T.nn.functional.elu(x, alpha=0.7), nonzero(3, 4)),
    case("smooth_l1_loss", lambda T, a, b: T.nn.functional.smooth_l1_loss(a, b, beta=0.5),
         spread(3, 4), np.zeros((3, 4))),
    case("normalize", lambda T, x: T.nn.functional.normalize(x, dim=1), nonzero(3, 4)),
    case("cosine_similarity", lambda T, a, b: T.nn.functional.cosine_similarity(a, b),
         nonzero(3, 4), nonzero(3, 4)),
    case("div_floor", lambda T, a, b: T.div(a, b, rounding_mode="floor"), uniform(3, 4) * 4,
         nonzero(3, 4)),
    case("div_trunc", lambda T, a, b: a.div(b, rounding_mode="trunc"), uniform(3, 4) * 4,
         nonzero(4)),
    case("squeeze_dims", lambda T, x: x.squeeze((1, 2, 0)), uniform(3, 1, 1)),
    case("pad", lambda T, x: T.nn.functional.pad(x, (1, 2, 0, -1), value=0.5), uniform(3, 4)),
    case("pad_3d", lambda T, x: T.nn.functional.pad(x, (0, 1, 2, 0, 1, 1)), uniform(2, 3, 2)),
    case("relu6", lambda T, x: T.nn.functional.relu6(x * 8), spread(3, 4)),
    case("linear_2d", lambda T, x, w, b: T.nn.functional.linear(x, w, b),
         uniform(2, 3), uniform(4, 3), uniform(4)),
    case("linear_3d", lambda T, x, w, b: T.nn.functional.linear(x, w, b),
         uniform(2, 2, 3), uniform(4, 3), uniform(4)),
    case("linear_1d", lambda T, x, w, b: T.nn.functional.linear(x, w, b),
         uniform(3), uniform(4, 3), uniform(4)),
    case("rmatmul_transposed", lambda T, a, b: a.t() @ b, uniform(3, 2), uniform(3, 4)),
    # elementwise functions
    case("exp", lambda T, x: x.exp(), uniform(3, 4)),
    case("exp_function", lambda T, x: T.exp(x), uniform(3, 4)),
    case("log", lambda T, x: x.log(), positive(3, 4)),
    case("sin", lambda T, x: T.sin(x), uniform(3, 4)),
    case("cos", lambda T, x: T.cos(x), uniform(3, 4)),
    case("tanh", lambda T, x: T.tanh(x), uniform(3, 4)),
    case("sigmoid", lambda T, x: T.sigmoid(x), uniform(3, 4) * 3),
    case("relu", lambda T, x: T.relu(x), nonzero(3, 4)),
    case("clamp_min_method", lambda T, x: x.clamp_min(0.5), spread(3, 4)),
    case("clamp_max_method_", lambda T, x: inplace(x * 1, "clamp_max_", -0.5), spread(3, 4)),
    case("threshold", lambda T, x: T.nn.functional.threshold(x, 0.5, -2.0), spread(3, 4)),
    case("threshold_inplace",
         lambda T, x: T.nn.functional.threshold(x * 1, -0.5, 3.0, inplace=True), spread(3, 4)),
    case("sqrt", lambda T, x: T.sqrt(x), positive(3, 4)),
    case("abs", lambda T, x: T.abs(x), nonzero(3, 4)),
    case("abs_builtin", lambda T, x: abs(x), nonzero(3, 4)),
    case("sign", lambda T, x: x.sign(), nonzero(3, 4)),
    case("square", lambda T, x: x.square(), uniform(3, 4)),
    case("clamp_min", lambda T, x: x.clamp(min=0.0), spread(3, 4)),
    case("clamp_max", lambda T, x: x.clamp(max=0.5), spread(3, 4)),
    case("clamp_both", lambda T, x: T.clamp(x, -0.5, 0.5), spread(3, 4)),
    case("clip", lambda T, x: x.clip(-0.5, 0.5), spread(3, 4)),
    # choosing and combining
    case("softmax_last", lambda T, x: x.softmax(-1), uniform(3, 4)),
    case("softmax_dim0", lambda T, x: x.softmax(0), uniform(3, 4)),
    case("softmax_3d", lambda T, x: x.softmax(1), uniform(2, 3, 2)),
    case("log_softmax_last", lambda T, x: x.log_softmax(-1), uniform(3, 4)),
    case("log_softmax_dim0", lambda T, x: x.log_softmax(0), uniform(3, 4)),
    case("masked_fill", lambda T, x: x.masked_fill(T.tensor(MASK34), 0.5), uniform(3, 4)),
    case("masked_fill_broadcast_mask",
         lambda T, x: x.masked_fill(T.tensor(MASK34[0]), -1.0), uniform(3, 4)),
    case("maximum", lambda T, a, b: T.maximum(a, b), MAX_A, MAX_B),
    case("minimum", lambda T, a, b: T.minimum(a, b), MAX_A, MAX_B),
    case("maximum_broadcast", lambda T, a, b: a.maximum(b), MAX_MATRIX, MAX_ROW),
    case("minimum_broadcast", lambda T, a, b: a.minimum(b), MAX_ROW, MAX_MATRIX),
    case("max_binary", lambda T, a, b: T.max(a, b), MAX_A, MAX_B),
    case("min_binary", lambda T, a, b: a.min(b), MAX_A, MAX_B),
    case("where", lambda T, a, b: T.where(T.tensor(COND34), a, b), uniform(3, 4), uniform(3, 4)),
    case("where_broadcast", lambda T, a, b: T.where(T.tensor(COND34), a, b),
         uniform(3, 1), uniform(4)),
    case("where_number", lambda T, a: T.where(T.tensor(COND34), a, 0.0), uniform(3, 4)),
    case("cat_dim0", lambda T, a, b, c: T.cat([a, b, c]), uniform(2, 3), uniform(1, 3),
         uniform(3, 3)),
    case("cat_dim1", lambda T, a, b: T.cat((a, b), dim=1), uniform(2, 3), uniform(2, 2)),
    case("cat_negative_dim", lambda T, a, b: T.cat([a, b], -1), uniform(2, 2, 1),
         uniform(2, 2, 3)),
    case("cat_same_tensor", lambda T, a: T.cat([a, a * 2]), uniform(2, 3)),
    case("stack_dim0", lambda T, a, b, c: T.stack([a, b, c]), uniform(2, 3), uniform(2, 3),
         uniform(2, 3)),
    case("stack_dim1", lambda T, a, b: T.stack((a, b), dim=1), uniform(2, 3), uniform(2, 3)),
    case("stack_last", lambda T, a, b: T.stack([a, b], -1), uniform(2, 3), uniform(2, 3)),
    # reductions
    case("sum_all", lambda T, x: x.sum(), uniform(3, 4)),
    case("sum_function", lambda T, x: T.sum(x), uniform(3, 4)),
    case("sum_dim", lambda T, x: x.sum(0), uniform(3, 4)),
    case("sum_negative_dim", lambda T, x: x.sum(dim=-1), uniform(2, 3, 4)),
    case("sum_dims_tuple", lambda T, x: x.sum((0, 2)), uniform(2, 3, 4)),
    case("sum_keepdim", lambda T, x: x.sum(1, keepdim=True), uniform(2, 3, 4)),
    case("sum_dims_keepdim", lambda T, x: x.sum((0, -1), keepdim=True), uniform(2, 3, 4)),
    case("mean_all", lambda T, x: x.mean(), uniform(3, 4)),
    case("mean_function", lambda T, x: T.mean(x, 1), uniform(3, 4)),
    case("mean_dim", lambda T, x: x.mean(0), uniform(3, 4)),
    case("mean_dims_tuple", lambda T, x: x.mean((0, 2)), uniform(2, 3, 4)),
    case("mean_keepdim", lambda T, x: x.mean(-1, keepdim=True), uniform(2, 3, 4)),
    case("mean_dims_keepdim", lambda T, x: x.mean((1, 2), keepdim=True), uniform(2, 3, 4)),
    case("max_all", lambda T, x: x.max(), distinct(3, 4)),
    case("min_all", lambda T, x: T.min(x), distinct(3, 4)),
    case("max_dim", lambda T, x: x.max(1), distinct(3, 4)),
    case("max_dim_values", lambda T, x: x.max(dim=0).values, distinct(3, 4)),
    case("max_dim_keepdim", lambda T, x: T.max(x, -1, keepdim=True)[0], distinct(2, 3, 4)),
    case("min_dim", lambda T, x: x.min(0), distinct(3, 4)),
    case("min_dim_values", lambda T, x: x.min(dim=1).values, distinct(2, 3, 4)),
    case("min_dim_keepdim", lambda T, x: x.min(1, keepdim=True).values, distinct(3, 4)),
    case("sum_empty_dims", lambda T, x: x.sum(()), uniform(3, 4)),
    case("mean_empty_dims", lambda T, x: x.mean([]), uniform(3, 4)),
    case("sum_0d_dim", lambda T, x: x.sum(0), uniform()),
    case("mean_0d_dim", lambda T, x: x.mean(-1, keepdim=True), uniform()),
    case("max_0d_dim", lambda T, x: x.max(0), uniform()),
    case("min_0d_dim_keepdim", lambda T, x: x.min(-1, keepdim=True), uniform()),
    case("sum_to_size", lambda T, x: x.sum_to_size(3, 1), uniform(2, 3, 4)),
    case("sum_to_size_tuple", lambda T, x: x.sum_to_size((1, 4)), uniform(3, 4)),
    case("sum_to_size_same", lambda T, x: x.sum_to_size(3, 4), uniform(3, 4)),
    # shape
    case("view", lambda T, x: x.view(2, 6), uniform(3, 4)),
    case("view_tuple_infer", lambda T, x: x.view((-1, 3)), uniform(3, 4)),
    case("view_flat", lambda T, x: x.view(-1), uniform(3, 4)),
    case("reshape", lambda T, x: x.reshape(4, 3), uniform(3, 4)),
    case("reshape_of_transposed", lambda T, x: x.t().reshape(-1), uniform(3, 4)),
    case("reshape_of_permuted", lambda T, x: x.permute(2, 0, 1).reshape(4, 6), uniform(2, 3, 4)),
    case("flatten", lambda T, x: x.flatten(), uniform(2, 3, 4)),
    case("view_as", lambda T, a, b: a.view_as(b), uniform(3, 4), uniform(6, 2)),
    case("transpose", lambda T, x: x.transpose(0, 1), uniform(3, 4)),
    case("transpose_3d", lambda T, x: x.transpose(0, -1), uniform(2, 3, 4)),
    case("t", lambda T, x: x.t(), uniform(3, 4)),
    case("t_1d", lambda T, x: x.t(), uniform(4)),
    case("T", lambda T, x: x.T, uniform(3, 4)),
    case("mT", lambda T, x: x.mT, uniform(2, 3, 4)),
    case("permute", lambda T, x: x.permute(2, 0, 1), uniform(2, 3, 4)),
    case("permute_tuple", lambda T, x: x.permute((1, -1, 0)), uniform(2, 3, 4)),
    case("squeeze", lambda T, x: x.squeeze(), uniform(1, 3, 1, 4)),
    case("squeeze_dim", lambda T, x: x.squeeze(2), uniform(1, 3, 1, 4)),
    case("squeeze_dim_not_one", lambda T, x: x.squeeze(1), uniform(1, 3, 1, 4)),
    case("unsqueeze", lambda T, x: x.unsqueeze(1), uniform(3, 4)),
    case("unsqueeze_last", lambda T, x: x.unsqueeze(-1), uniform(3, 4)),
    case("expand", lambda T, x: x.expand(2, 3, 4), uniform(3, 1)),
    case("expand_minus_one", lambda T, x: x.expand(-1, 4), uniform(3, 1)),
    case("expand_as", lambda T, a, b: a.expand_as(b), uniform(4), uniform(3, 4)),
    case("clone", lambda T, x: x.clone(), uniform(3, 4)),
    case("contiguous", lambda T, x: x.contiguous(), uniform(3, 4)),
    case("contiguous_of_transposed", lambda T, x: x.t().contiguous(), uniform(3, 4)),
    case("to_float64", lambda T, x: x.to(T.float64), uniform(3, 4)),
    case("double", lambda T, x: x.double(), uniform(3, 4)),
    # through float32 and back: eps must be large for float32, the op is linear
    case("to_float32_and_back", lambda T, x: x.to(T.float32).to(T.float64), uniform(3, 4),
         check=dict(eps=1e-3, atol=1e-4)),
    # indexing
    case("index_int", lambda T, x: x[0], uniform(3, 4)),
    case("index_negative_int", lambda T, x: x[-1], uniform(3, 4)),
    case("index_scalar", lambda T, x: x[1, 2], uniform(3, 4)),
    case("index_slice", lambda T, x: x[1:], uniform(3, 4)),
    case("index_slice_step", lambda T, x: x[::2, 1:3], uniform(3, 4)),
    case("index_column", lambda T, x: x[:, 0], uniform(3, 4)),
    case("index_none", lambda T, x: x[None], uniform(3, 4)),
    case("index_none_middle", lambda T, x: x[:, None, 1:], uniform(3, 4)),
    case("index_ellipsis", lambda T, x: x[..., 1], uniform(2, 3, 4)),
    case("index_ellipsis_only", lambda T, x: x[...], uniform(3, 4)),
    case("index_int_array", lambda T, x: x[[0, 0, 2]], uniform(3, 4)),
    case("index_int_tensor", lambda T, x: x[T.tensor([2, 0, 2, 2])], uniform(3, 4)),
    case("index_int_arrays_pair", lambda T, x: x[[0, 2, 0], [1, 1, 1]], uniform(3, 4)),
    case("index_int_array_column", lambda T, x: x[:, [3, 0, 3]], uniform(3, 4)),
    case("index_bool_mask", lambda T, x: x[T.tensor(MASK34)], uniform(3, 4)),
    case("index_bool_rows", lambda T, x: x[T.tensor([True, False, True])], uniform(3, 4)),
    # in-place ops on a non-leaf clone
    case("add_", lambda T, x, v: inplace(x.clone(), "add_", v), uniform(3, 4), uniform(4)),
    case("add_alpha_", lambda T, x, v: inplace(x.clone(), "add_", v, alpha=2), uniform(3, 4),
         uniform(3, 4)),
    case("add_number_", lambda T, x: inplace(x.clone(), "add_", 2.0), uniform(3, 4)),
    case("iadd", lambda T, x, v: inplace(x * 1, "__iadd__", v), uniform(3, 4), uniform(4)),
    case("sub_", lambda T, x, v: inplace(x.clone(), "sub_", v), uniform(3, 4), uniform(3, 1)),
    case("sub_number_", lambda T, x: inplace(x.clone(), "sub_", 0.5), uniform(3, 4)),
    case("mul_", lambda T, x, v: inplace(x.clone(), "mul_", v), uniform(3, 4), uniform(3, 4)),
    case("mul_broadcast_", lambda T, x, v: inplace(x.clone(), "mul_", v), uniform(3, 4),
         uniform(4)),
    case("mul_number_", lambda T, x: inplace(x.clone(), "mul_", 3.0), uniform(3, 4)),
    case("mul_then_use_", lambda T, x, v: inplace(x.sin(), "mul_", v) * x, uniform(3, 4),
         uniform(3, 4)),
    case("div_", lambda T, x, v: inplace(x.clone(), "div_", v), uniform(3, 4), positive(3, 4)),
    case("div_broadcast_", lambda T, x, v: inplace(x.clone(), "div_", v), uniform(3, 4),
         nonzero(4)),
    case("div_number_", lambda T, x: inplace(x.clone(), "div_", 4.0), uniform(3, 4)),
    case("clamp_min_", lambda T, x: inplace(x.clone(), "clamp_", min=0.0), spread(3, 4)),
    case("clamp_max_", lambda T, x: inplace(x.clone(), "clamp_", max=0.5), spread(3, 4)),
    case("clamp_both_", lambda T, x: inplace(x.clone(), "clamp_", -0.5, 0.5), spread(3, 4)),
    case("copy_", lambda T, x, v: inplace(x.clone(), "copy_", v), uniform(3, 4), uniform(3, 4)),
    case("copy_broadcast_", lambda T, x, v: inplace(x * 2, "copy_", v), uniform(3, 4),
         uniform(4)),
    case("fill_", lambda T, x: inplace(x.clone(), "fill_", 1.5) * x, uniform(3, 4)),
    case("zero_", lambda T, x: inplace(x.clone(), "zero_") + x, uniform(3, 4)),
    case("setitem_row", lambda T, x, v: setitem(x.clone(), 0, v), uniform(3, 4), uniform(4)),
    case("setitem_slice_broadcast",
         lambda T, x, v: setitem(x.clone(), (slice(None), slice(1, 3)), v),
         uniform(3, 4), uniform(3, 1)),
    case("setitem_number", lambda T, x: setitem(x.clone(), (1, 2), 7.0), uniform(3, 4)),
    case("setitem_int_array", lambda T, x, v: setitem(x.clone(), [0, 2], v), uniform(3, 4),
         uniform(2, 4)),
    case("setitem_bool_mask", lambda T, x, v: setitem(x.clone(), T.tensor(MASK34), v),
         uniform(3, 4), uniform()),
    # in-place through a view of a non-leaf: the base's history is rewritten
    case("mul_through_view", lambda T, x, v: (lambda y: (y[1].mul_(v), y)[1])(x.clone()),
         uniform(3, 4), uniform(4)),
    case("add_through_transposed_view",
         lambda T, x, v: (lambda y: (y.t().add_(v), y * 2)[1])(x.clone()),
         uniform(3, 4), uniform(3)),
    case("setitem_through_view",
         lambda T, x, v: (lambda y: (setitem(y[:, 1], slice(0, 2), v), y)[1])(x.sin()),
         uniform(3, 4), uniform(2)),
    # more ops: pieces (views), picking, tiling
    case("split", lambda T, x: x.split(2), uniform(5, 3)),
    case("split_sizes", lambda T, x: T.split(x, [1, 2], dim=1), uniform(4, 3)),
    case("chunk", lambda T, x: x.chunk(2, 1), uniform(3, 5)),
    case("unbind", lambda T, x: T.unbind(x, 1), uniform(3, 4)),
    case("split_one_piece_used", lambda T, x: x.split(2)[1] * 2, uniform(4, 3)),
    case("narrow", lambda T, x: x.narrow(1, 1, 2), uniform(3, 4)),
    case("movedim", lambda T, x: x.movedim(0, 2), uniform(2, 3, 4)),
    case("swapaxes", lambda T, x: x.swapaxes(0, 1), uniform(3, 4)),
    case("gather", lambda T, x: x.gather(1, T.tensor([[0, 0], [3, 1], [2, 2]])), uniform(3, 4)),
    case("index_select", lambda T, x: x.index_select(0, T.tensor([2, 0, 2])), uniform(3, 4)),
    case("repeat", lambda T, x: x.repeat(2, 1, 3), uniform(3, 2)),
    case("flip", lambda T, x: x.flip(0, 1), uniform(3, 4)),
    case("roll", lambda T, x: x.roll((1, -1), (0, 1)), uniform(3, 4)),
    case("roll_flat", lambda T, x: x.roll(2), uniform(3, 4)),
    case("tril", lambda T, x: x.tril(), uniform(3, 4)),
    case("triu", lambda T, x: T.triu(x, 1), uniform(4, 3)),
    case("outer", lambda T, a, b: T.outer(a, b), uniform(3), uniform(4)),
    # more reductions
    case("cumsum", lambda T, x: x.cumsum(1), uniform(3, 4)),
    case("prod", lambda T, x: x.prod(), nonzero(2, 3)),
    case("prod_dim", lambda T, x: T.prod(x, 1, keepdim=True), nonzero(3, 4)),
    case("prod_dim_with_zero", lambda T, x: (x * T.tensor([[0.0, 1, 1], [1, 1, 1]])).prod(1),
         nonzero(2, 3)),
    case("amax", lambda T, x: x.amax(1), distinct(3, 4)),
    case("amin_all", lambda T, x: T.amin(x), distinct(3, 4)),
    case("logsumexp", lambda T, x: x.logsumexp(1), uniform(3, 4) * 3),
    case("norm", lambda T, x: x.norm(), uniform(3, 4)),
    case("norm_dim", lambda T, x: T.norm(x, dim=1, keepdim=True), nonzero(3, 4)),
    case("norm_p3", lambda T, x: x.norm(p=3), nonzero(3, 4)),
    case("norm_p1", lambda T, x: x.norm(p=1, dim=0), nonzero(3, 4)),
    case("var", lambda T, x: x.var(), uniform(3, 4)),
    case("var_dim_biased", lambda T, x: x.var(1, unbiased=False), uniform(3, 4)),
    case("std", lambda T, x: x.std(0), uniform(3, 4)),
    case("std_correction", lambda T, x: T.std(x, correction=0), uniform(3, 4)),
    case("split_with_sizes", lambda T, x: x.split_with_sizes([1, 3], 1), uniform(3, 4)),
    case("unsafe_split", lambda T, x: T.unsafe_split(x, 2), uniform(3, 4)),
    case("unsafe_chunk", lambda T, x: x.unsafe_chunk(2, 1), uniform(3, 4)),
    case("median", lambda T, x: x.median(), distinct(3, 4)),
    case("median_dim", lambda T, x: T.median(x, 1), distinct(3, 4)),
    case("nanmedian_dim_keepdim", lambda T, x: x.nanmedian(0, keepdim=True), distinct(3, 4)),
    case("take_along_dim", lambda T, x: T.take_along_dim(x, x.argsort(1, descending=True), 1),
         distinct(3, 4)),
    case("take_along_dim_broadcast", lambda T, x: x.take_along_dim(x[:1, :2].argsort(1), 1),
         distinct(3, 4)),
    case("take_along_dim_flat", lambda T, x: x.take_along_dim(x.view(-1).argsort()[:5]),
         distinct(3, 4)),
    case("t_", lambda T, x: inplace(x * 1, "t_"), uniform(3, 4)),
    case("transpose_", lambda T, x: inplace(x * 1, "transpose_", 0, 2), uniform(2, 3, 4)),
    case("squeeze_unsqueeze_", lambda T, x: inplace(inplace(x * 1, "squeeze_"), "unsqueeze_", -1),
         uniform(3, 1, 4)),
    case("unflatten", lambda T, x: x.unflatten(1, (2, -1)), uniform(3, 4)),
    case("tensor_split", lambda T, x: x.tensor_split(3, 1), uniform(3, 4)),
    case("tensor_split_indices", lambda T, x: T.tensor_split(x, [1, 3, 2], 0), uniform(3, 4)),
    case("index_fill", lambda T, x: x.index_fill(1, T.tensor([0, 2]), -1.5), uniform(3, 4)),
    case("index_fill_", lambda T, x: inplace(x * 1, "index_fill_", 0, T.tensor([1]), 2.0),
         uniform(3, 4)),
    case("mode", lambda T, x: x.mode(0), distinct(3, 4)),
    case("kthvalue", lambda T, x: T.kthvalue(x, 2, 1), distinct(3, 4)),
    case("select", lambda T, x: x.select(1, -2), uniform(3, 4)),
    case("diagonal", lambda T, x: x.diagonal(), uniform(3, 4)),
    case("diagonal_offset_dims", lambda T, x: T.diagonal(x, -1, 2, 0), uniform(3, 2, 4)),
    case("trace", lambda T, x: T.trace(x), uniform(3, 4)),
    case("trace_tall", lambda T, x: x.trace(), uniform(5, 2)),
    case("var_mean", lambda T, x: T.var_mean(x, 1), uniform(3, 4)),
    case("var_mean_all", lambda T, x: T.var_mean(x, correction=0), uniform(3, 4)),
    case("std_mean", lambda T, x: T.std_mean(x, 0, keepdim=True), uniform(3, 4)),
    # more elementwise functions
    case("log1p", lambda T, x: x.log1p(), positive(3, 4)),
    case("expm1", lambda T, x: T.expm1(x), uniform(3, 4)),
    case("log2", lambda T, x: x.log2(), positive(3, 4)),
    case("log10", lambda T, x: T.log10(x), positive(3, 4)),
    case("sinh", lambda T, x: x.sinh(), uniform(3, 4)),
    case("cosh", lambda T, x: T.cosh(x), uniform(3, 4)),
    case("asin", lambda T, x: x.asin(), uniform(3, 4) * 0.8),
    case("acos", lambda T, x: T.acos(x), uniform(3, 4) * 0.8),
    case("atan", lambda T, x: x.atan(), uniform(3, 4)),
    case("atan2", lambda T, a, b: T.atan2(a, b), uniform(3, 4), nonzero(4)),
    case("softplus", lambda T, x: T.nn.functional.softplus(x), uniform(3, 4) * 3),
    case("softplus_beta", lambda T, x: T.nn.functional.softplus(x, beta=2, threshold=1),
         spread(3, 4)),
    case("floor", lambda T, x: x.floor() + x, spread(3, 4) * 3),
    case("round", lambda T, x: x.round() * x, spread(3, 4)),
    case("erf", lambda T, x: x.erf(), uniform(3, 4) * 2),
    case("erfc", lambda T, x: T.erfc(x), uniform(3, 4) * 2),
    # ordering (distinct values: ties have no derivative), diagonals, outer and where methods
    case("sort", lambda T, x: x.sort(), distinct(3, 4)),
    case("sort_dim0_descending", lambda T, x: T.sort(x, 0, descending=True).values, distinct(3, 4)),
    case("sort_stable", lambda T, x: x.sort(stable=True).values, distinct(2, 5)),
    case("topk", lambda T, x: x.topk(2), distinct(3, 4)),
    case("topk_smallest_dim0", lambda T, x: T.topk(x, 2, dim=0, largest=False).values,
         distinct(3, 4)),
    case("diag_of_matrix", lambda T, x: x.diag(1), uniform(3, 4)),
    case("diag_below", lambda T, x: T.diag(x, -1), uniform(4, 3)),
    case("diag_of_vector", lambda T, x: T.diag(x, -2), uniform(3)),
    case("outer_method", lambda T, a, b: a.outer(b), uniform(3), uniform(2)),
    case("where_method", lambda T, a, b: a.where(T.tensor(COND34), b), uniform(3, 4), uniform(4)),
]


# --- running a case ----------------------------------------------------------------

def make_inputs(T, arrays, dtype_name="float64", position=None):
    """Tensors of `T` from the arrays; all require grad, or only the one at `position`."""
    dtype = getattr(T, dtype_name)
    return tuple(T.tensor(a, dtype=dtype, requires_grad=position is None or i == position)
                 for i, a in enumerate(arrays))


def minigrad_inputs(arrays):
    return make_inputs(minigrad, arrays)


def under_minigrad(fn):
    return lambda *xs: fn(minigrad, *xs)


@pytest.fixture(autouse=True)
def _seed():
    minigrad.manual_seed(0)      # gradgradcheck draws random grad_outputs


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_gradcheck(fn, arrays, options):
    inputs = minigrad_inputs(arrays)
    assert gradcheck(under_minigrad(fn), inputs, **options.get("check", {})) is True


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_gradgradcheck(fn, arrays, options):
    inputs = minigrad_inputs(arrays)
    assert gradgradcheck(under_minigrad(fn), inputs, **options.get("check", {})) is True


def test_every_case_has_a_unique_id():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


# Ops save only what their backward needs (`ctx.needs_input_grad`): check each
# input of a multi-input op alone, the others plain tensors.
ONE_INPUT_CASES = [
    pytest.param(*c.values, position, id=f"{c.id}-input{position}")
    for c in CASES if len(c.values[1]) > 1 for position in range(len(c.values[1]))
]


@pytest.mark.parametrize("fn, arrays, options, position", ONE_INPUT_CASES)
def test_gradcheck_one_input_requires_grad(fn, arrays, options, position):
    inputs = make_inputs(minigrad, arrays, position=position)
    assert gradcheck(under_minigrad(fn), inputs, **options.get("check", {})) is True
    assert gradgradcheck(under_minigrad(fn), inputs, **options.get("check", {})) is True


def test_sum_over_a_repeated_dim_is_refused_like_pytorch():
    with pytest.raises(RuntimeError, match="dim 0 appears multiple times in the list of dims"):
        minigrad.ones(2, 3).sum((0, -2))


# --- the same cases against PyTorch ------------------------------------------------------

def _as_outputs(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def _run(T, fn, arrays, seeds, dtype_name, position):
    """Forward outputs, then the gradients of sum(output * seed) w.r.t. the inputs that
    require grad (all of them when position is None)."""
    inputs = make_inputs(T, arrays, dtype_name, position)
    outputs = _as_outputs(fn(T, *inputs))
    differentiable = [o for o in outputs if o.requires_grad]
    grad_outputs = [T.tensor(s, dtype=o.dtype) for o, s in zip(differentiable, seeds)]
    wanted = [x for x in inputs if x.requires_grad]
    grads = T.autograd.grad(differentiable, wanted, grad_outputs, allow_unused=True)
    return outputs, grads


def _seeds(fn, arrays):
    """A fixed random gradient for each differentiable output (shapes from a minigrad run)."""
    outputs = _as_outputs(fn(minigrad, *minigrad_inputs(arrays)))
    rng = np.random.default_rng(7)
    return [rng.uniform(-1, 1, o.shape) for o in outputs if o.requires_grad]


TOLERANCES = {"float64": dict(rtol=1e-12, atol=1e-12), "float32": dict(rtol=1e-5, atol=1e-6)}


def compare_with_pytorch(fn, arrays, dtype_name="float64", position=None):
    torch = pytest.importorskip("torch")
    seeds = _seeds(fn, arrays)
    ours, our_grads = _run(minigrad, fn, arrays, seeds, dtype_name, position)
    theirs, their_grads = _run(torch, fn, arrays, seeds, dtype_name, position)
    tolerance = TOLERANCES[dtype_name]
    assert len(ours) == len(theirs)
    for index, (mine, reference) in enumerate(zip(ours, theirs)):
        assert mine.shape == tuple(reference.shape)
        assert mine.dtype.name == str(reference.dtype).removeprefix("torch.")
        assert mine.requires_grad == reference.requires_grad
        np.testing.assert_allclose(mine.detach().numpy(), reference.detach().numpy(),
                                   err_msg=f"output {index}", **tolerance)
    for index, (mine, reference) in enumerate(zip(our_grads, their_grads)):
        assert (mine is None) == (reference is None), f"input {index}: {mine} vs {reference}"
        if mine is not None:
            assert mine.shape == tuple(reference.shape)
            assert mine.dtype.name == str(reference.dtype).removeprefix("torch.")
            np.testing.assert_allclose(mine.numpy(), reference.numpy(),
                                       err_msg=f"gradient of input {index}", **tolerance)


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_matches_pytorch(fn, arrays, options):
    compare_with_pytorch(fn, arrays)


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_matches_pytorch_float32(fn, arrays, options):
    compare_with_pytorch(fn, arrays, "float32")


@pytest.mark.parametrize("fn, arrays, options, position", ONE_INPUT_CASES)
def test_matches_pytorch_one_input_requires_grad(fn, arrays, options, position):
    compare_with_pytorch(fn, arrays, position=position)


# At a kink or a tie there is no derivative; PyTorch picks a convention
# (relu'(0) = 0, ties of max share evenly ...), and minigrad must pick the same.
TIES = np.array([[1.0, 0.0, -1.0, 1.0], [0.5, 1.0, 0.0, -0.5], [-1.0, 0.5, 0.5, 0.0]])

AT_KINKS_AND_TIES = [
    case("relu_at_zero", lambda T, x: x.relu(), TIES),
    case("threshold_at_threshold", lambda T, x: T.nn.functional.threshold(x, 0.5, 7.0), TIES),
    case("abs_at_zero", lambda T, x: x.abs(), TIES),
    case("sign_at_zero", lambda T, x: x.sign(), TIES),
    case("clamp_at_bounds", lambda T, x: x.clamp(-0.5, 0.5), TIES),
    case("clamp_inplace_at_bounds", lambda T, x: inplace(x * 1, "clamp_", -0.5, 0.5), TIES),
    case("sqrt_at_zero", lambda T, x: (x * x).sqrt(), TIES),
    case("max_all_ties", lambda T, x: x.max(), TIES),
    case("min_all_ties", lambda T, x: x.min(), TIES),
    case("max_dim_ties", lambda T, x: x.max(1), TIES),
    case("min_dim_ties", lambda T, x: x.min(0), TIES),
    case("maximum_ties", lambda T, a, b: a.maximum(b), TIES, TIES.T.reshape(3, 4)),
    case("minimum_ties", lambda T, a, b: T.minimum(a, b), TIES, np.zeros(4)),
    case("pow_tensor_zero_base", lambda T, a, b: a ** b, np.abs(TIES), np.full((3, 4), 2.0)),
]


@pytest.mark.parametrize("fn, arrays, options", AT_KINKS_AND_TIES)
def test_matches_pytorch_at_kinks_and_ties(fn, arrays, options):
    compare_with_pytorch(fn, arrays)



def test_erf_and_erfc_match_pytorch_to_the_last_digits():
    """Both ways minigrad computes erf (math.erf for small arrays, Cody's rational
    approximations for big ones) agree with PyTorch far beyond the harness's tolerance."""
    torch = pytest.importorskip("torch")
    wide = np.concatenate([np.linspace(-30, 30, 6001), RNG.normal(0, 3, 4000)])
    for values in (wide, wide[:50]):
        for name in ("erf", "erfc"):
            ours = getattr(minigrad, name)(minigrad.tensor(values)).numpy()
            theirs = getattr(torch, name)(torch.tensor(values)).numpy()
            normal = np.abs(theirs) > 1e-300            # below: subnormals, few digits
            np.testing.assert_allclose(ours[normal], theirs[normal], rtol=2e-15, atol=0)
            np.testing.assert_array_equal(ours[~normal] == 0, theirs[~normal] == 0)
