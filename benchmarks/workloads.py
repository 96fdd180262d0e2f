"""The four workloads of benchmarks/run.py, written once per engine.

Every engine gets the same computation:

    per_op   200 elementwise ops (y*x, y+0.5, tanh, y-x, repeated) on a
             16-element float64 vector, then sum and backward
    mlp      one SGD step of a 784-256-256-10 tanh MLP, batch 128, float32,
             softmax cross-entropy (log_softmax, pick the label, mean)
    chain    a chain of n ops (y*0.999, y+0.001, alternating) on a 1-element
             tensor, then backward
    memory   50 layers y = tanh(y * w) on 1000x1000 float32 (see run.py)

`minigrad` and `torch` run literally the same code (`import minigrad as torch`
is the project's promise); "numpy" is the hand-written floor: the forward and
the backward written out by hand, no graph.  Each `setup_*` returns a
zero-argument callable that runs the workload once.
"""
import numpy as np

PER_OP_OPS = 200
MLP_SIZES = (784, 256, 256, 10)


def import_engine(name):
    """The module of an engine, or None when it is not installed."""
    try:
        if name == "minigrad":
            import minigrad as module
        elif name == "torch":
            import torch as module
        elif name == "mygrad":
            import mygrad as module
        elif name == "autograd":
            import autograd as module
        elif name == "bare":                 # bare_engine.py: the leanest Python engine
            import bare_engine as module
        else:
            module = np
    except ImportError:
        return None
    return module


# --- per-op cost -----------------------------------------------------------------------

def _per_op_tensors(T, x0, n_ops):
    x = T.tensor(x0, dtype=T.float64, requires_grad=True)

    def run():
        y = x
        for _ in range(n_ops // 4):
            y = (y * x + 0.5).tanh() - x
        y.sum().backward()
        grad, x.grad = x.grad, None
        return grad
    return run


def _per_op_numpy(x0, n_ops):
    x = x0.copy()

    def run():
        y, tape = x, []
        for _ in range(n_ops // 4):
            c = np.tanh(y * x + 0.5)
            tape.append((y, c))
            y = c - x
        g, gx = np.ones_like(y), np.zeros_like(x)
        for y_in, c in reversed(tape):
            gx -= g                      # y = c - x
            g = g * (1 - c * c)          # c = tanh(b)
            gx += g * y_in               # a = y_in * x
            g = g * x
        gx += g                          # the first y is x itself
        return gx
    return run


def _per_op_mygrad(mg, x0, n_ops):
    x = mg.tensor(x0)

    def run():
        y = x
        for _ in range(n_ops // 4):
            y = mg.tanh(y * x + 0.5) - x
        y.sum().backward()
    return run


def _per_op_hips(x0, n_ops):
    import autograd
    import autograd.numpy as anp

    def f(x):
        y = x
        for _ in range(n_ops // 4):
            y = anp.tanh(y * x + 0.5) - x
        return anp.sum(y)
    gradient = autograd.grad(f)
    return lambda: gradient(x0)


def setup_per_op(engine, n_ops=PER_OP_OPS):
    x0 = np.linspace(-1, 1, 16)
    if engine == "numpy":
        return _per_op_numpy(x0, n_ops)
    if engine == "mygrad":
        return _per_op_mygrad(import_engine("mygrad"), x0, n_ops)
    if engine == "autograd":
        return _per_op_hips(x0, n_ops)
    return _per_op_tensors(import_engine(engine), x0, n_ops)


# --- MLP step ----------------------------------------------------------------------------

def _mlp_data(batch, sizes, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, sizes[0]), dtype=np.float32)
    labels = rng.integers(0, sizes[-1], batch)
    params = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        params.append((rng.standard_normal((fan_in, fan_out), dtype=np.float32)
                       / np.float32(np.sqrt(fan_in))))
        params.append(np.zeros(fan_out, dtype=np.float32))
    return x, labels, params


def _mlp_tensors(T, x0, labels0, params0, lr):
    x, labels = T.tensor(x0), T.tensor(labels0)
    rows = T.arange(len(labels0))
    params = [T.tensor(p, requires_grad=True) for p in params0]
    W1, b1, W2, b2, W3, b3 = params

    def step():
        h = (x @ W1 + b1).tanh()
        h = (h @ W2 + b2).tanh()
        logits = h @ W3 + b3
        loss = -logits.log_softmax(1)[rows, labels].mean()
        loss.backward()
        with T.no_grad():
            for p in params:
                p -= lr * p.grad
                p.grad = None
        return loss
    return step, params


def _mlp_numpy(x, labels, params, lr):
    params = [p.copy() for p in params]
    W1, b1, W2, b2, W3, b3 = params
    rows, batch = np.arange(len(labels)), len(labels)

    def step():
        h1 = np.tanh(x @ W1 + b1)
        h2 = np.tanh(h1 @ W2 + b2)
        logits = h2 @ W3 + b3
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        loss = -log_p[rows, labels].mean()
        g = np.exp(log_p)                      # d loss / d logits = (softmax - onehot) / B
        g[rows, labels] -= 1
        g /= batch
        grads = [None] * 6
        grads[4], grads[5], g = h2.T @ g, g.sum(axis=0), g @ W3.T
        g *= 1 - h2 * h2
        grads[2], grads[3], g = h1.T @ g, g.sum(axis=0), g @ W2.T
        g *= 1 - h1 * h1
        grads[0], grads[1] = x.T @ g, g.sum(axis=0)
        for p, gp in zip(params, grads):
            p -= lr * gp
        return loss
    return step, params


def _mlp_mygrad(mg, x, labels, params0, lr):
    params = [mg.tensor(p) for p in params0]
    W1, b1, W2, b2, W3, b3 = params
    rows = np.arange(len(labels))

    def step():
        h = mg.tanh(mg.matmul(x, W1) + b1)
        h = mg.tanh(mg.matmul(h, W2) + b2)
        logits = mg.matmul(h, W3) + b3
        shifted = logits - mg.max(logits, axis=1, keepdims=True)
        log_p = shifted - mg.log(mg.sum(mg.exp(shifted), axis=1, keepdims=True))
        loss = -mg.mean(log_p[rows, labels])
        loss.backward()
        for p in params:
            p.data -= lr * p.grad
        return loss
    return step, params


def _mlp_hips(x, labels, params0, lr):
    import autograd
    import autograd.numpy as anp
    params = [p.copy() for p in params0]
    rows = np.arange(len(labels))

    def loss_of(ps):
        W1, b1, W2, b2, W3, b3 = ps
        h = anp.tanh(anp.dot(x, W1) + b1)
        h = anp.tanh(anp.dot(h, W2) + b2)
        logits = anp.dot(h, W3) + b3
        shifted = logits - anp.max(logits, axis=1, keepdims=True)
        log_p = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
        return -anp.mean(log_p[rows, labels])
    gradient = autograd.grad(loss_of)

    def step():
        for p, gp in zip(params, gradient(params)):
            p -= lr * gp
    return step, params


def setup_mlp(engine, batch=128, sizes=MLP_SIZES, lr=0.01):
    """The step function and its parameters (a list of the engine's arrays)."""
    x, labels, params = _mlp_data(batch, sizes)
    if engine == "numpy":
        return _mlp_numpy(x, labels, params, lr)
    if engine == "mygrad":
        return _mlp_mygrad(import_engine("mygrad"), x, labels, params, lr)
    if engine == "autograd":
        return _mlp_hips(x, labels, params, lr)
    return _mlp_tensors(import_engine(engine), x, labels, params, lr)


# --- a long chain ------------------------------------------------------------------------

def _chain_tensors(T, n_ops):
    x = T.tensor([1.0], requires_grad=True)

    def run():
        y = x
        for _ in range(n_ops // 2):
            y = y * 0.999 + 0.001
        y.sum().backward()
        grad, x.grad = x.grad, None
        return grad
    return run


def _chain_numpy(n_ops):
    x = np.ones(1, dtype=np.float32)

    def run():
        y = x
        for _ in range(n_ops // 2):
            y = y * np.float32(0.999) + np.float32(0.001)
        g = np.ones_like(y)
        for _ in range(n_ops // 2):
            g = g * np.float32(0.999)
        return g
    return run


def _chain_mygrad(mg, n_ops):
    x = mg.tensor([1.0])

    def run():
        y = x
        for _ in range(n_ops // 2):
            y = y * 0.999 + 0.001
        y.sum().backward()
    return run


def _chain_hips(n_ops):
    import autograd

    def f(x):
        y = x
        for _ in range(n_ops // 2):
            y = y * 0.999 + 0.001
        return y
    gradient = autograd.grad(f)
    return lambda: gradient(1.0)


def setup_chain(engine, n_ops):
    if engine == "numpy":
        return _chain_numpy(n_ops)
    if engine == "mygrad":
        return _chain_mygrad(import_engine("mygrad"), n_ops)
    if engine == "autograd":
        return _chain_hips(n_ops)
    return _chain_tensors(import_engine(engine), n_ops)


# --- memory of a deep graph on big tensors ---------------------------------------------

def memory_layers(engine, size, layers, mark):
    """Run y = tanh(y * w) `layers` times, then backward; call `mark(label)` at the
    points run.py measures: "baseline", "forward" (graph built), "backward" (done)."""
    rng = np.random.default_rng(0)
    x0 = rng.standard_normal((size, size), dtype=np.float32)
    w0 = rng.standard_normal((size, size), dtype=np.float32)
    if engine == "numpy":
        mark("baseline")
        y, saved = x0, []
        for _ in range(layers):
            saved.append(y)
            y = np.tanh(y * w0)
            saved.append(y)
        mark("forward")
        g, gw = np.ones_like(y), np.zeros_like(w0)
        for _ in range(layers):
            out, y_in = saved.pop(), saved.pop()
            g = g * (1 - out * out)
            gw += g * y_in
            g = g * w0
            del out, y_in
        mark("backward")
        return
    T = import_engine(engine)
    x = T.tensor(x0, requires_grad=True)
    w = T.tensor(w0, requires_grad=True)
    del x0, w0
    mark("baseline")
    y = x
    for _ in range(layers):
        y = (y * w).tanh()
    mark("forward")
    y.sum().backward()
    mark("backward")
