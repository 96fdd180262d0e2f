"""Differential cases from PyTorch's autograd tutorials and notes, written as a
student would paste them after ``import minigrad as torch``.

Sources (programs rewritten from those documents, random inputs replaced by
fixed tensors since minigrad cannot reproduce PyTorch's random stream):

- "A Gentle Introduction to torch.autograd"
- "Automatic differentiation with torch.autograd" (Learn the Basics)
- "Learning PyTorch with Examples" (tensors and autograd, custom Function)
- "Autograd mechanics" (grad modes, inference mode, in-place checks, saved
  tensors, hooks and their order)
- "Extending PyTorch" and "Double Backward with Custom Functions"
- "Hooks for saved tensors"
- ``torch.autograd.functional`` (jacobian, hessian, vjp, jvp, hvp, vhp)
- the function forms and Tensor methods those documents use.

Out of scope (minigrad is an autograd tutor, not a network library):
``torch.nn`` modules and optimizers, convolutions (the "Fusing Convolution and
Batch Norm" tutorial beyond its custom-Function skeleton), complex numbers,
multithreading, and ``torch.autograd.forward_ad``.
"""
import math


def _n(value):
    """A printed value with PyTorch's module prefix replaced by minigrad's."""
    return str(value).replace("torch.", "minigrad.")


# --- A Gentle Introduction to torch.autograd ---------------------------------

def case_gentle_intro_external_grad(T, rec):
    a = T.tensor([2., 3.], requires_grad=True)
    b = T.tensor([6., 4.], requires_grad=True)
    Q = 3 * a ** 3 - b ** 2
    external_grad = T.tensor([1., 1.])
    Q.backward(gradient=external_grad)
    rec("9*a**2 == a.grad", 9 * a ** 2 == a.grad)
    rec("-2*b == b.grad", -2 * b == b.grad)
    rec("Q.grad_fn", Q.grad_fn.name())


def case_gentle_intro_exclusion_from_dag(T, rec):
    x = T.rand(5, 5)
    y = T.rand(5, 5)
    z = T.rand((5, 5), requires_grad=True)
    a = x + y
    rec("a requires grad", a.requires_grad)
    b = x + z
    rec("b requires grad", b.requires_grad)
    rec("rand shape", tuple(z.shape))
    rec("rand in [0, 1)", bool(((z >= 0) & (z < 1)).all()))


# --- Learn the Basics: automatic differentiation -----------------------------

def case_basics_bce_with_logits(T, rec):
    x = T.ones(5)                   # input tensor
    y = T.zeros(3)                  # expected output
    w = T.tensor([[0.1, -0.2, 0.3]] * 5, requires_grad=True)
    b = T.tensor([0.5, -0.5, 0.0], requires_grad=True)
    z = T.matmul(x, w) + b
    loss = T.nn.functional.binary_cross_entropy_with_logits(z, y)
    rec("z.grad_fn", z.grad_fn.name())
    rec("loss.grad_fn", loss.grad_fn.name())
    rec("loss", loss)
    loss.backward()
    rec("w.grad", w.grad)
    rec("b.grad", b.grad)
    z = T.matmul(x, w) + b
    rec("z requires grad", z.requires_grad)
    with T.no_grad():
        z = T.matmul(x, w) + b
    rec("z requires grad under no_grad", z.requires_grad)
    z_det = (T.matmul(x, w) + b).detach()
    rec("z_det requires grad", z_det.requires_grad)


def case_basics_jacobian_product(T, rec):
    inp = T.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(T.ones_like(out), retain_graph=True)
    rec("first call", inp.grad)
    out.backward(T.ones_like(out), retain_graph=True)
    rec("second call", inp.grad)
    inp.grad.zero_()
    out.backward(T.ones_like(out), retain_graph=True)
    rec("after zeroing", inp.grad)


# --- Learning PyTorch with Examples --------------------------------------------

def case_examples_polynomial_autograd(T, rec):
    dtype = T.float
    device = T.device("cpu")
    x = T.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
    y = T.sin(x)
    r = T.randn((), device=device, dtype=dtype, requires_grad=True)
    rec("randn(()) shape", tuple(r.shape))
    rec("randn(()) requires grad", r.requires_grad)
    a, b, c, d = (T.tensor(v, device=device, dtype=dtype, requires_grad=True)
                  for v in (0.1, -0.2, 0.3, -0.1))
    learning_rate = 1e-6
    losses = []
    for t in range(30):
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = (y_pred - y).pow(2).sum()
        if t % 10 == 9:
            losses.append(round(loss.item(), 2))
        loss.backward()
        with T.no_grad():
            a -= learning_rate * a.grad
            b -= learning_rate * b.grad
            c -= learning_rate * c.grad
            d -= learning_rate * d.grad
            a.grad = None
            b.grad = None
            c.grad = None
            d.grad = None
    rec("losses", losses)
    rec("result", [a.item(), b.item(), c.item(), d.item()])
    rec("a is leaf", a.is_leaf)


def case_examples_legendre_function(T, rec):
    class LegendrePolynomial3(T.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input ** 2 - 1)

    dtype = T.float
    device = T.device("cpu")
    x = T.linspace(-math.pi, math.pi, 100, device=device, dtype=dtype)
    y = T.sin(x)
    a = T.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
    b = T.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
    c = T.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
    d = T.full((), 0.3, device=device, dtype=dtype, requires_grad=True)
    learning_rate = 5e-6
    for t in range(20):
        P3 = LegendrePolynomial3.apply
        y_pred = a + b * P3(c + d * x)
        loss = (y_pred - y).pow(2).sum()
        loss.backward()
        with T.no_grad():
            for p in (a, b, c, d):
                p -= learning_rate * p.grad
                p.grad = None
    rec("grad_fn", y_pred.grad_fn.name())
    rec("loss", loss)
    rec("result", [a.item(), b.item(), c.item(), d.item()])


# --- Autograd mechanics ----------------------------------------------------------

def case_mechanics_grad_modes(T, rec):
    x = T.tensor([1., 2., 3.], requires_grad=True)
    with T.no_grad():
        rec("no_grad", (x * 2).requires_grad)
    with T.inference_mode():
        y = x * 2
        rec("inference mode enabled", T.is_inference_mode_enabled())
        rec("grad enabled in inference mode", T.is_grad_enabled())
    rec("inference mode after", T.is_inference_mode_enabled())
    rec("y requires grad", y.requires_grad)
    rec("y is inference", y.is_inference())
    rec("x is inference", x.is_inference())
    with T.inference_mode(mode=False):
        rec("inference_mode(False) grad", (x * 2).requires_grad)

    @T.inference_mode()
    def doubled(t):
        return t * 2
    rec("decorated", doubled(x).requires_grad)
    with T.set_grad_enabled(False):
        rec("set_grad_enabled(False)", (x * 2).requires_grad)
    with T.no_grad():
        with T.enable_grad():
            rec("enable_grad inside no_grad", (x * 2).requires_grad)


def case_mechanics_inference_tensor_errors(T, rec):
    x = T.tensor([1., 2.], requires_grad=True)
    with T.inference_mode():
        y = T.ones(2)
    with rec.raises("inference tensors cannot be saved for backward", name="save"):
        (x * y).sum().backward()
    normal = y.clone()
    # (PyTorch writes, then raises; minigrad raises before writing: y is not recorded)
    with rec.raises("inplace update to inference tensor outside inferencemode",
                    name="inplace"):
        y.add_(1)
    rec("clone is normal", normal.is_inference())
    z = x * normal
    z.sum().backward()
    rec("x.grad", x.grad)


def case_mechanics_inplace_correctness(T, rec):
    a = T.tensor([0.5, 1.0, 1.5], requires_grad=True)
    b = a.sigmoid()
    c = b.sum()
    b.mul_(2)
    with rec.raises("modified by an inplace operation", name="backward"):
        c.backward()
    a = T.tensor([0.5, 1.0], requires_grad=True)
    b = a.exp()
    rec("version before", b._version)
    b.add_(1)
    rec("version after", b._version)
    with rec.raises("modified by an inplace operation", name="exp backward"):
        b.sum().backward()


def case_mechanics_saved_tensor_attributes(T, rec):
    x = T.tensor([1., 2., 3.], requires_grad=True)
    y = x.pow(2)
    rec("x equal saved self", x.equal(y.grad_fn._saved_self))
    rec("x is saved self", x is y.grad_fn._saved_self)
    rec("saved exponent", y.grad_fn._saved_exponent)
    y = x.exp()
    rec("y equal saved result", y.equal(y.grad_fn._saved_result))
    rec("y is saved result", y is y.grad_fn._saved_result)
    z = x * T.tensor([4., 5., 6.])
    rec("mul saved other", z.grad_fn._saved_other)
    rec("mul saved self (not needed: not saved)", z.grad_fn._saved_self)
    z.sum().backward()
    with rec.raises("after they have already been freed", name="freed"):
        z.grad_fn._saved_other
    with rec.raises("has no attribute", name="unknown"):
        z.grad_fn._saved_nothing


def case_mechanics_raw_saved_register_hooks(T, rec):
    log = []

    def pack_hook(t):
        log.append(("pack", t.sum().item()))
        return t

    def unpack_hook(t):
        log.append(("unpack", t.sum().item()))
        return t

    x = T.tensor([1., 2., 3.], requires_grad=True)
    y = x.pow(2)
    y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
    rec("packed at register", log)
    rec("saved self through hooks", y.grad_fn._saved_self)
    y.sum().backward()
    rec("log", log)
    rec("x.grad", x.grad)
    x = T.tensor([1., 2.], requires_grad=True)
    y = x.pow(2)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
    with rec.raises("already been set", name="register twice"):
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def case_mechanics_backward_hooks_order(T, rec):
    log = []
    a = T.tensor([1., 2.], requires_grad=True)
    b = a * 3
    c = b.sum()
    b.retain_grad()
    b.register_hook(lambda g: log.append(("tensor hook b", g.tolist())))
    b.grad_fn.register_prehook(lambda gs: log.append(("node prehook", gs[0].tolist())))
    b.grad_fn.register_hook(lambda gi, go: log.append(("node hook", go[0].tolist())))
    a.register_hook(lambda g: log.append(("tensor hook a", g.tolist())))
    a.register_post_accumulate_grad_hook(
        lambda t: log.append(("post accumulate", t.grad.tolist())))
    c.backward()
    rec("log", log)
    rec("b.grad", b.grad)
    rec("b retains grad", b.retains_grad)


def case_mechanics_hook_on_inplace_modified_tensor(T, rec):
    log = []
    t = T.tensor(1., requires_grad=True).sin()
    t.mul_(2)          # the notes use t.cos_(); any in-place op shows the rule
    t.register_hook(lambda g: log.append(g.item()))
    t.backward()
    rec("hook saw", log)


def case_mechanics_multi_grad_hook(T, rec):
    seen = []
    a = T.tensor([1., 2.], requires_grad=True)
    b = T.tensor([3., 4.], requires_grad=True)
    T.autograd.graph.register_multi_grad_hook(
        (a, b), lambda grads: seen.append([None if g is None else g.tolist() for g in grads]))
    (a * b).sum().backward()
    rec("seen", seen)


# --- Extending PyTorch --------------------------------------------------------------

def _linear_function(T):
    class LinearFunction(T.autograd.Function):
        @staticmethod
        def forward(input, weight, bias):
            output = input.mm(weight.t())
            if bias is not None:
                output += bias.unsqueeze(0).expand_as(output)
            return output

        @staticmethod
        def setup_context(ctx, inputs, output):
            input, weight, bias = inputs
            ctx.save_for_backward(input, weight, bias)

        @staticmethod
        def backward(ctx, grad_output):
            input, weight, bias = ctx.saved_tensors
            grad_input = grad_weight = grad_bias = None
            if ctx.needs_input_grad[0]:
                grad_input = grad_output.mm(weight)
            if ctx.needs_input_grad[1]:
                grad_weight = grad_output.t().mm(input)
            if bias is not None and ctx.needs_input_grad[2]:
                grad_bias = grad_output.sum(0)
            return grad_input, grad_weight, grad_bias
    return LinearFunction


def case_extending_linear_function_gradcheck(T, rec):
    linear = _linear_function(T).apply
    input = (T.tensor([[0.1, 0.2, 0.3, 0.4]] * 3, dtype=T.double)
             + T.arange(3, dtype=T.double).unsqueeze(1)).requires_grad_()
    weight = T.tensor([[0.5, -0.5, 1.0, 2.0], [1.5, 0.0, -1.0, 0.25]],
                      dtype=T.double, requires_grad=True)
    bias = T.tensor([0.1, -0.1], dtype=T.double, requires_grad=True)
    rec("gradcheck", T.autograd.gradcheck(linear, (input, weight, bias), eps=1e-6, atol=1e-4))
    out = linear(input, weight, bias)
    out.sum().backward()
    rec("out", out)
    rec("input.grad", input.grad)
    rec("weight.grad", weight.grad)
    rec("bias.grad", bias.grad)
    rec("no bias", linear(input.detach(), weight, None))


def case_extending_mul_constant_setup_context(T, rec):
    class MulConstant(T.autograd.Function):
        @staticmethod
        def forward(tensor, constant):
            return tensor * constant

        @staticmethod
        def setup_context(ctx, inputs, output):
            tensor, constant = inputs
            ctx.constant = constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant, None

    x = T.tensor([1., 2.], requires_grad=True)
    y = MulConstant.apply(x, 5.0)
    y.sum().backward()
    rec("x.grad", x.grad)


def case_extending_sort_non_differentiable(T, rec):
    class MyRelu(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            mask = x > 0
            ctx.mark_non_differentiable(mask)
            ctx.save_for_backward(mask)
            return x.clamp(min=0), mask

        @staticmethod
        @T.autograd.function.once_differentiable
        def backward(ctx, g, g_mask):
            mask, = ctx.saved_tensors
            return g * mask

    x = T.tensor([-1., 2., -3., 4.], requires_grad=True)
    out, mask = MyRelu.apply(x)
    rec("mask requires grad", mask.requires_grad)
    out.sum().backward()
    rec("x.grad", x.grad)


# --- Double Backward with Custom Functions --------------------------------------------

def case_double_backward_square(T, rec):
    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        def backward(ctx, grad_out):
            x, = ctx.saved_tensors
            return grad_out * 2 * x

    x = T.tensor([[0.1, 0.5, 0.9], [0.2, 0.4, 0.6], [0.3, 0.7, 0.8]],
                 requires_grad=True, dtype=T.double)
    rec("gradcheck", T.autograd.gradcheck(Square.apply, x))
    rec("gradgradcheck", T.autograd.gradgradcheck(Square.apply, x))


def case_double_backward_sinh_intermediates(T, rec):
    class Sinh(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            expx = T.exp(x)
            expnegx = T.exp(-x)
            ctx.save_for_backward(expx, expnegx)
            return (expx - expnegx) / 2, expx, expnegx

        @staticmethod
        def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
            expx, expnegx = ctx.saved_tensors
            grad_input = grad_out * (expx + expnegx) / 2
            grad_input += _grad_out_exp * expx
            grad_input -= _grad_out_negexp * expnegx
            return grad_input

    def sinh(x):
        return Sinh.apply(x)[0]

    x = T.tensor([0.1, -0.4, 0.7], requires_grad=True, dtype=T.double)
    rec("gradcheck", T.autograd.gradcheck(sinh, x))
    rec("gradgradcheck", T.autograd.gradgradcheck(sinh, x))
    (g,) = T.autograd.grad(sinh(x).sum(), x, create_graph=True)
    rec("g", g)
    (gg,) = T.autograd.grad(g.sum(), x)
    rec("gg", gg)


def case_double_backward_cube_untracked(T, rec):
    def cube_backward(grad_out, x):
        return grad_out * 3 * x ** 2

    class CubeBackward(T.autograd.Function):
        @staticmethod
        def forward(ctx, grad_out, x):
            ctx.save_for_backward(x, grad_out)
            return cube_backward(grad_out, x)

        @staticmethod
        def backward(ctx, grad_out):
            x, sav_grad_out = ctx.saved_tensors
            dx = grad_out * sav_grad_out * 6 * x
            dgrad_out = grad_out * 3 * x ** 2
            return dgrad_out, dx

    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad_out):
            x, = ctx.saved_tensors
            return CubeBackward.apply(grad_out, x)

    x = T.tensor([0.5, -1.5], requires_grad=True, dtype=T.double)
    rec("gradcheck", T.autograd.gradcheck(Cube.apply, x))
    rec("gradgradcheck", T.autograd.gradgradcheck(Cube.apply, x))


# --- Hooks for saved tensors -------------------------------------------------------------

def case_saved_hooks_global_and_save_on_cpu(T, rec):
    log = []

    def pack_hook(x):
        log.append(("pack", x.tolist()))
        return x

    def unpack_hook(x):
        log.append(("unpack", x.tolist()))
        return x

    with T.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        a = T.ones(5, requires_grad=True)
        b = T.ones(5, requires_grad=True) * 2
        y = a * b
    y.sum().backward()
    rec("log", sorted(log))
    a = T.tensor([1., 2.], requires_grad=True)
    with T.autograd.graph.save_on_cpu(pin_memory=False):
        y = (a * a).sin()
    y.sum().backward()
    rec("save_on_cpu grad", a.grad)
    with T.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
        with rec.raises("no hooks here", name="disabled"):
            with T.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
                pass


def case_saved_hooks_to_disk(T, rec):
    import os
    import tempfile
    import uuid

    tmp_dir = tempfile.mkdtemp()

    class SelfDeletingTempFile:
        def __init__(self):
            self.name = os.path.join(tmp_dir, str(uuid.uuid4()))

        def __del__(self):
            os.remove(self.name)

    def pack_hook(tensor):
        temp_file = SelfDeletingTempFile()
        T.save(tensor, temp_file.name)
        return temp_file

    def unpack_hook(temp_file):
        return T.load(temp_file.name)

    x = T.tensor([0.5, 1.0, 2.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        y = x.pow(2)
    rec("files while graph alive", len(os.listdir(tmp_dir)))
    y.sum().backward()
    rec("x.grad", x.grad)
    del y
    rec("files after", len(os.listdir(tmp_dir)))
    os.rmdir(tmp_dir)


def case_saved_hooks_inplace_in_pack_is_error(T, rec):
    def pack_hook(x):
        x += 1
        return x

    a = T.tensor([1., 2.], requires_grad=True)
    with rec.raises("pack hook is modifying its input in place", name="pack in place"):
        with T.autograd.graph.saved_tensors_hooks(pack_hook, lambda x: x):
            y = a * a


# --- torch.autograd.functional ------------------------------------------------------------

def case_functional_jacobian_hessian(T, rec):
    F = T.autograd.functional

    def exp_reducer(x):
        return x.exp().sum(dim=1)

    inputs = T.tensor([[0.1, 0.2], [0.3, -0.4]])
    rec("jacobian", F.jacobian(exp_reducer, inputs))
    rec("jacobian create_graph requires grad",
        F.jacobian(exp_reducer, inputs, create_graph=True).requires_grad)

    def exp_adder(x, y):
        return 2 * x.exp() + 3 * y

    pair = (T.tensor([0.5, -1.0]), T.tensor([1.0, 2.0]))
    rec("jacobian of two inputs", F.jacobian(exp_adder, pair))

    def pow_reducer(x):
        return x.pow(3).sum()

    rec("hessian", F.hessian(pow_reducer, T.tensor([[1.0, -2.0], [0.5, 3.0]])))

    def pow_adder_reducer(x, y):
        return (2 * x.pow(2) + 3 * y.pow(2)).sum()

    rec("hessian of two inputs", F.hessian(pow_adder_reducer, pair))


def case_functional_vjp_jvp_hvp(T, rec):
    F = T.autograd.functional

    def exp_reducer(x):
        return x.exp().sum(dim=1)

    inputs = T.tensor([[0.1, 0.2, 0.3], [0.3, -0.4, 0.5]])
    v = T.ones(2)
    rec("vjp", F.vjp(exp_reducer, inputs, v))

    def adder(x, y):
        return 2 * x + 3 * y

    pair = (T.tensor([1.0, 2.0]), T.tensor([3.0, 4.0]))
    rec("vjp two inputs", F.vjp(adder, pair, T.ones(2)))
    rec("jvp", F.jvp(exp_reducer, inputs, T.ones(2, 3)))
    rec("jvp two inputs", F.jvp(adder, pair, (T.ones(2), T.ones(2))))

    def pow_reducer(x):
        return x.pow(3).sum()

    x = T.tensor([[1.0, 2.0], [0.5, -1.0]])
    rec("vhp", F.vhp(pow_reducer, x, T.ones(2, 2)))
    rec("hvp", F.hvp(pow_reducer, x, T.ones(2, 2)))


# --- torch.nn.functional (the losses and activations the tutorials use) ---------------------

def case_nn_functional_losses(T, rec):
    F = T.nn.functional
    logits = T.tensor([[1.0, -0.5, 0.2], [0.3, 2.0, -1.0]], requires_grad=True)
    target = T.tensor([2, 1])
    loss = F.cross_entropy(logits, target)
    rec("cross_entropy", loss)
    rec("cross_entropy grad_fn", loss.grad_fn.name())
    loss.backward()
    rec("cross_entropy grad", logits.grad)
    rec("cross_entropy sum", F.cross_entropy(logits, target, reduction="sum"))
    rec("nll_loss none", F.nll_loss(F.log_softmax(logits, dim=1), target, reduction="none"))
    pred = T.tensor([0.5, 1.5, -2.0], requires_grad=True)
    goal = T.tensor([1.0, 1.0, 1.0])
    mse = F.mse_loss(pred, goal)
    rec("mse", mse)
    rec("mse grad_fn", mse.grad_fn.name())
    mse.backward()
    rec("mse grad", pred.grad)
    rec("mse sum", F.mse_loss(pred, goal, reduction="sum"))
    z = T.tensor([0.3, -1.2, 2.5], requires_grad=True)
    y = T.tensor([1.0, 0.0, 1.0])
    bce = F.binary_cross_entropy_with_logits(z, y, reduction="sum")
    (g,) = T.autograd.grad(bce, z, create_graph=True)
    rec("bce logits grad", g)
    (gg,) = T.autograd.grad(g.sum(), z)
    rec("bce logits second derivative", gg)
    p = T.tensor([0.2, 0.7, 0.9], requires_grad=True)
    bce = F.binary_cross_entropy(p, y)
    rec("binary_cross_entropy", bce)
    rec("binary_cross_entropy grad_fn", bce.grad_fn.name())
    bce.backward()
    rec("binary_cross_entropy grad", p.grad)


def case_nn_functional_activations(T, rec):
    F = T.nn.functional
    x = T.tensor([[1.0, -0.5, 0.2], [0.3, 2.0, -1.0]], requires_grad=True)
    for name, out in [("relu", F.relu(x)), ("sigmoid", T.sigmoid(x)), ("tanh", T.tanh(x)),
                      ("softmax", F.softmax(x, dim=1)), ("log_softmax", F.log_softmax(x, dim=-1)),
                      ("F.sigmoid", F.sigmoid(x)), ("F.tanh", F.tanh(x))]:
        rec(name, out)
        rec(name + " grad_fn", out.grad_fn.name())
    out = F.softmax(x, dim=0)
    (out * T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    rec("softmax grad", x.grad)


# --- function forms and Tensor methods -------------------------------------------------------

def case_function_forms(T, rec):
    x = T.tensor([[1.0, -2.0], [0.5, 4.0]], requires_grad=True)
    y = T.tensor([[2.0, 1.0], [-1.0, 0.5]])
    outs = {
        "add": T.add(x, y), "add alpha": T.add(x, y, alpha=2), "add number": T.add(x, 1),
        "sub": T.sub(x, y), "sub alpha": T.sub(x, y, alpha=3), "mul": T.mul(x, y),
        "div": T.div(x, y), "pow": T.pow(x, 2), "pow tensor": T.pow(x.abs(), y),
        "neg": T.neg(x), "square": T.square(x), "exp": T.exp(x), "log": T.log(x.abs()),
        "sqrt": T.sqrt(x.abs()), "abs": T.abs(x), "clamp": T.clamp(x, min=0.0, max=1.0),
        "sigmoid": T.sigmoid(x), "tanh": T.tanh(x), "relu": T.relu(x),
        "sum": T.sum(x), "sum dim": T.sum(x, dim=1), "mean": T.mean(x),
        "mean dim keepdim": T.mean(x, dim=0, keepdim=True), "matmul": T.matmul(x, y),
        "mm": T.mm(x, y), "where": T.where(x > 0, x, y), "sin": T.sin(x), "cos": T.cos(x),
        "reshape": T.reshape(x, (4,)), "transpose": T.transpose(x, 0, 1),
        "t": T.t(x), "flatten": T.flatten(x), "unsqueeze": T.unsqueeze(x, 0),
        "squeeze": T.squeeze(T.unsqueeze(x, 0)), "softmax": T.softmax(x, dim=1),
        "log_softmax": T.log_softmax(x, dim=1), "dot": T.dot(x[0], y[0]),
        "maximum": T.maximum(x, y), "clone": T.clone(x), "sign": T.sign(x),
        "masked_fill": T.masked_fill(x, x < 0, 0.0), "reciprocal": T.reciprocal(x),
    }
    for name, out in outs.items():
        rec(name, out)
        rec(name + " grad_fn", out.grad_fn.name() if out.grad_fn is not None else None)
    total = sum(o.sum() for o in outs.values() if o.dtype.is_floating_point)
    total.backward()
    rec("x.grad", x.grad)
    rec("is_tensor", [T.is_tensor(x), T.is_tensor([1.0]), T.is_tensor(3)])
    rec("numel", T.numel(x))
    rec("zeros_like", T.zeros_like(x))
    rec("ones_like", T.ones_like(x, dtype=T.int64))
    rec("is_floating_point", T.is_floating_point(x))
    rec("argmax", T.argmax(x))
    rec("equal", T.equal(x, x.detach().clone()))


def case_random_functions_exist(T, rec):
    T.manual_seed(0)
    a = T.randn(3, 4)
    T.manual_seed(0)
    b = T.randn(3, 4)
    rec("same seed same numbers", bool((a == b).all()))
    rec("randn shape", tuple(T.randn(2, 3, dtype=T.float64).shape))
    rec("randn dtype", _n(T.randn(2, dtype=T.float64).dtype))
    rec("rand tuple shape", tuple(T.rand((2, 3)).shape))
    rec("randn_like shape", tuple(T.randn_like(a).shape))
    rec("rand_like dtype", _n(T.rand_like(a).dtype))
    rec("randint", T.randint(0, 1, (3,)))


def case_tensor_methods(T, rec):
    x = T.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
    w = x.clone().requires_grad_()
    rec("requires_grad_", w.requires_grad)
    rec("T", x.T)
    rec("mT", x.mT)
    rec("tolist", x.tolist())
    rec("add alpha", x.add(T.ones(2, 3), alpha=10))
    y = x.clone()
    y.masked_fill_(y < 0, 0.0)
    rec("masked_fill_", y)
    rec("masked_fill_ version", y._version)
    h = w * 2
    h.retain_grad()
    seen = []
    w.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.sum().item()))
    out = h.masked_fill(h > 5, 0.0).sum()
    out.backward()
    rec("h.grad", h.grad)
    rec("w.grad", w.grad)
    rec("post accumulate", seen)
    z = w.detach().clone().requires_grad_()
    v = z * 1
    v.masked_fill_(v > 2, -1.0)
    rec("masked_fill_ grad_fn", v.grad_fn.name())
    v.sum().backward()
    rec("masked_fill_ grad", z.grad)
    rec("numel", x.numel())
    rec("sub_ alpha", x.clone().sub_(T.ones(2, 3), alpha=2))
