# Copied from the project's shared oracle (../shared/oracle/cases_public.py), unchanged
# below this header; tests/test_differential.py runs it under pytest.
"""Public differential cases: each runs under PyTorch and minigrad alike.

Every case uses only the PyTorch-compatible surface that minigrad promises
(see docs in shared/DESIGN.md).  Names recorded with rec(...) are compared.
"""


# --- the seed documents' own examples, verbatim in spirit -----------------

def case_seed_save_for_backward(T, rec):
    Function = T.autograd.Function

    class Func(Function):
        @staticmethod
        def forward(ctx, x, y, z):
            w = x * y * z
            out = x * y + y * z + w
            ctx.save_for_backward(x, y, out)
            ctx.z = z
            ctx.w = w
            return out

        @staticmethod
        def backward(ctx, grad_out):
            x, y, out = ctx.saved_tensors
            z = ctx.z
            gx = grad_out * (y + y * z)
            gy = grad_out * (x + z + x * z)
            return gx, gy, None

    a = T.tensor(1., requires_grad=True, dtype=T.double)
    b = T.tensor(2., requires_grad=True, dtype=T.double)
    d = Func.apply(a, b, 4)
    rec("d", d)
    rec("d.requires_grad", d.requires_grad)
    rec("grad_fn name", d.grad_fn.name())
    d.backward()
    rec("a.grad", a.grad)
    rec("b.grad", b.grad)


def case_seed_exp_and_mulconstant(T, rec):
    Function = T.autograd.Function

    class Exp(Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * result

    class MulConstant(Function):
        @staticmethod
        def forward(ctx, tensor, constant):
            ctx.constant = constant
            return tensor * constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant, None

    x = T.tensor([0.0, 1.0, -2.0], requires_grad=True)
    y = MulConstant.apply(Exp.apply(x), 3.0)
    rec("y", y)
    y.sum().backward()
    rec("x.grad", x.grad)
    rec("x.grad dtype matches float32 default", x.grad.dtype == T.float32)


def case_seed_saved_tensors_hooks(T, rec):
    log = []

    def pack_hook(x):
        log.append(("pack", x.detach().sum().item()))
        return x

    def unpack_hook(x):
        log.append(("unpack", x.detach().sum().item()))
        return x

    a = T.ones(5, requires_grad=True)
    b = T.ones(5, requires_grad=True) * 2
    with T.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        y = a * b
    # built-in ops may save their inputs in either order: compare as sets
    rec("packed in forward", sorted(log))
    n = len(log)
    y.sum().backward()
    rec("unpacked in backward", sorted(log[n:]))
    rec("a.grad", a.grad)


def case_custom_function_pack_unpack_order(T, rec):
    log = []

    class Three(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            out = x * y + x
            ctx.save_for_backward(x, y, out)
            return out

        @staticmethod
        def backward(ctx, g):
            x, y, out = ctx.saved_tensors
            return g * (y + 1), g * x

    def pack(t):
        log.append(("pack", round(t.detach().sum().item(), 4)))
        return ("boxed", t)

    def unpack(box):
        assert box[0] == "boxed"
        log.append(("unpack", round(box[1].detach().sum().item(), 4)))
        return box[1]

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 4.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = Three.apply(x, y)
    out.sum().backward()
    rec("log", log)
    rec("x.grad", x.grad)
    rec("y.grad", y.grad)


# --- ctx API ----------------------------------------------------------------

def case_needs_input_grad(T, rec):
    seen = []

    class Mul(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, g):
            seen.append(tuple(ctx.needs_input_grad))
            x, y = ctx.saved_tensors
            gx = g * y if ctx.needs_input_grad[0] else None
            gy = g * x if ctx.needs_input_grad[1] else None
            return gx, gy

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 5.0])
    Mul.apply(x, y).sum().backward()
    rec("needs_input_grad", seen)
    rec("x.grad", x.grad)
    rec("y.grad", y.grad)
    z = Mul.apply(y, y)
    rec("no input requires grad -> output requires_grad", z.requires_grad)
    rec("no input requires grad -> grad_fn is None", z.grad_fn is None)


def case_mark_non_differentiable_and_materialize(T, rec):
    seen = []

    class SortLike(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            doubled = x * 2
            idx = (x > 0).to(T.float32) if hasattr(x, "to") else x > 0
            ctx.mark_non_differentiable(idx)
            return doubled, idx

        @staticmethod
        def backward(ctx, g_doubled, g_idx):
            seen.append(("g_idx is None", g_idx is None))
            return g_doubled * 2

    x = T.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    d, idx = SortLike.apply(x)
    rec("idx.requires_grad", idx.requires_grad)
    d.sum().backward()
    rec("seen", seen)
    rec("x.grad", x.grad)

    seen2 = []

    class TwoOut(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 1, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            seen2.append((g1 is None, g2 is None))
            total = None
            if g1 is not None:
                total = g1
            if g2 is not None:
                total = g2 * 3 if total is None else total + g2 * 3
            return total

    x2 = T.tensor([1.0, 1.0], requires_grad=True)
    a, b = TwoOut.apply(x2)
    b.sum().backward()
    rec("materialize False: which grads are None", seen2)
    rec("x2.grad", x2.grad)

    seen3 = []

    class TwoOutMaterialized(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            seen3.append((g1 is None, g2 is None, g1.detach().sum().item()))
            return g1 + g2 * 3

    x3 = T.tensor([1.0, 1.0], requires_grad=True)
    a3, b3 = TwoOutMaterialized.apply(x3)
    b3.sum().backward()
    rec("materialized: zeros given for unused output", seen3)
    rec("x3.grad", x3.grad)


def case_mark_dirty(T, rec):
    class AddOneInplace(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    v0 = y._version
    z = AddOneInplace.apply(y)
    rec("z is y", z is y)
    rec("version bumped", y._version > v0)
    rec("z value", z)
    rec("z.grad_fn name", z.grad_fn.name())
    (z * z).sum().backward()
    rec("x.grad", x.grad)


# --- version counters and in-place checks -----------------------------------

def case_version_counter_and_inplace_error(T, rec):
    x = T.tensor([1.0, 2.0, 3.0])
    rec("fresh version", x._version)
    x.add_(1)
    x.mul_(2)
    rec("after two in-place ops", x._version)
    d = x.detach()
    d.add_(1)
    rec("detach shares the version counter", x._version)

    a = T.tensor([0.5, 1.5], requires_grad=True)
    b = a.exp()          # exp saves its result
    b.add_(1)            # ...which is then modified in place
    with rec.raises("modified by an inplace operation", name="exp result modified"):
        b.sum().backward()

    class SaveInput(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    p = T.tensor([1.0, 2.0], requires_grad=True)
    q = p * 1
    r = SaveInput.apply(q)
    q.mul_(10)
    with rec.raises("modified by an inplace operation", name="custom saved input modified"):
        r.sum().backward()


def case_leaf_inplace_and_no_grad(T, rec):
    w = T.tensor([1.0, 2.0], requires_grad=True)
    with rec.raises("leaf variable", "in-place", name="leaf in-place"):
        w.add_(1)
    with T.no_grad():
        w.add_(1)
        y = w * 2
    rec("w after no_grad update", w)
    rec("no_grad result requires_grad", y.requires_grad)
    rec("no_grad result grad_fn is None", y.grad_fn is None)
    rec("grad mode restored", T.is_grad_enabled())


# --- the engine --------------------------------------------------------------

def case_backward_twice_and_retain_graph(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    rec("accumulated grad", x.grad)
    with rec.raises("second time", name="third backward"):
        y.backward()
    x.grad = None
    z = (x.exp()).sum()
    z.backward()
    rec("fresh grad after reset", x.grad)


def case_nonscalar_backward(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    with rec.raises("scalar outputs", name="implicit grad on vector"):
        y.backward()
    y.backward(T.tensor([1.0, 0.5, 0.0]))
    rec("x.grad", x.grad)


def case_broadcast_grads(T, rec):
    a = T.tensor([[1.0], [2.0], [3.0]], requires_grad=True)   # (3, 1)
    b = T.tensor([[10.0, 20.0, 30.0, 40.0]], requires_grad=True)  # (1, 4)
    c = T.tensor(0.5, requires_grad=True)
    y = (a * b + c) / (a + 1)
    y.sum().backward()
    rec("a.grad", a.grad)
    rec("b.grad", b.grad)
    rec("c.grad", c.grad)


def case_topological_order(T, rec):
    order = []

    def tag(name):
        class Tagged(T.autograd.Function):
            @staticmethod
            def forward(ctx, *xs):
                ctx.n = len(xs)
                out = xs[0] * 1
                for extra in xs[1:]:
                    out = out + extra
                return out

            @staticmethod
            def backward(ctx, g):
                order.append(name)
                return (g,) * ctx.n if ctx.n > 1 else g
        Tagged.__name__ = name
        return Tagged

    A, B, C, D, E = (tag(n) for n in "ABCDE")
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = A.apply(x)
    b = B.apply(a)
    c = C.apply(a)
    d = D.apply(c)
    e = E.apply(b, d)      # diamond: e <- b <- a, e <- d <- c <- a
    e.sum().backward()
    rec("backward order", order)
    rec("x.grad", x.grad)


def case_tensor_hooks(T, rec):
    calls = []
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    h1 = y.register_hook(lambda g: calls.append("y hook 1") or g * 10)
    y.register_hook(lambda g: calls.append("y hook 2"))
    handle = x.register_hook(lambda g: calls.append("x hook removed"))
    handle.remove()
    x.register_hook(lambda g: calls.append(("x hook sees", g.detach().sum().item())))
    y.sum().backward()
    rec("calls", calls)
    rec("y.grad (retained, after hooks)", y.grad)
    rec("x.grad", x.grad)
    rec("leaf is_leaf", x.is_leaf)
    rec("nonleaf is_leaf", y.is_leaf)
    del h1


def case_node_hooks_and_next_functions(T, rec):
    calls = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = (y * 3).sum()
    node = z.grad_fn
    rec("z node", node.name())
    rec("next of sum", [nf[0].name() if nf[0] is not None else None
                        for nf in node.next_functions])
    mul = node.next_functions[0][0]
    mul.register_prehook(lambda grad_outputs: calls.append(
        ("prehook", grad_outputs[0].detach().sum().item())))
    mul.register_hook(lambda grad_inputs, grad_outputs: calls.append(
        ("hook", grad_inputs[0].detach().sum().item())))
    z.backward()
    rec("calls", calls)
    rec("x.grad", x.grad)


def case_autograd_grad_and_higher_order(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x ** 3).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    rec("first derivative", g)
    rec("first derivative requires grad", g.requires_grad)
    (h,) = T.autograd.grad(g.sum(), x)
    rec("second derivative", h)
    rec("x.grad untouched by autograd.grad", x.grad is None)

    u = T.tensor([1.0], requires_grad=True)
    v = T.tensor([2.0], requires_grad=True)
    with rec.raises("not have been used", name="unused input"):
        T.autograd.grad((u * 2).sum(), [u, v])
    gu, gv = T.autograd.grad((u * 2).sum(), [u, v], allow_unused=True)
    rec("allow_unused", (gu, gv))


def case_gradcheck(T, rec):
    class Good(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.tanh()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * (1 - x.tanh() ** 2)

    class Bad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.tanh()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * (1 - x.tanh())      # a typical mistake

    x = T.tensor([0.1, -0.7, 1.3], dtype=T.float64, requires_grad=True)
    rec("good passes", T.autograd.gradcheck(Good.apply, (x,)))
    rec("bad returns False without raising",
        T.autograd.gradcheck(Bad.apply, (x,), raise_exception=False))
    with rec.raises("jacobian mismatch", name="bad raises"):
        T.autograd.gradcheck(Bad.apply, (x,))


# --- misuse gets a clear error -----------------------------------------------

def case_bad_backward_returns(T, rec):
    class TooFew(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            return x * y * k

        @staticmethod
        def backward(ctx, g):
            return g, g

    x = T.tensor([1.0], requires_grad=True)
    y = T.tensor([2.0], requires_grad=True)
    with rec.raises("incorrect number of gradients", "expected 3, got 2",
                    name="wrong count"):
        TooFew.apply(x, y, 3).sum().backward()

    class WrongShape(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return T.ones(5)

    z = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with rec.raises("invalid gradient at index 0", name="wrong shape"):
        WrongShape.apply(z).sum().backward()

    class SavesNonTensor(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    with rec.raises("save_for_backward can only save", name="save non-tensor"):
        SavesNonTensor.apply(z)

    class SavesNone(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, None)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            x, nothing = ctx.saved_tensors
            rec("saved None comes back as None", nothing is None)
            return g

    SavesNone.apply(z).sum().backward()
    rec("z.grad", z.grad)
