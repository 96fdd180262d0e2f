"""fast.ai "Deep Learning from the Foundations" (2019), notebook 02_fully_connected: a
two-layer net with gradients written by hand (lin_grad, relu_grad, mse_grad stored in
a .g attribute), checked against autograd on clones that require grad.

Source: https://github.com/fastai/course-v3/blob/master/nbs/dl2/02_fully_connected.ipynb
        (fastai/course-v3, nbs/dl2/02_fully_connected.ipynb)
Adapted: 20 random inputs of 10 features stand in for MNIST; test_near is allclose.
"""
import math

import torch

x_train = torch.randn(20, 10)
y_train = torch.randn(20)
n, m = x_train.shape
nh = 5
w1 = torch.randn(m, nh) / math.sqrt(m)
b1 = torch.zeros(nh)
w2 = torch.randn(nh, 1) / math.sqrt(nh)
b2 = torch.zeros(1)


def lin(x, w, b): return x @ w + b
def relu(x): return x.clamp_min(0.) - 0.5
def mse(output, targ): return (output.squeeze(-1) - targ).pow(2).mean()


def mse_grad(inp, targ):
    inp.g = 2. * (inp.squeeze() - targ).unsqueeze(-1) / inp.shape[0]


def relu_grad(inp, out):
    inp.g = (inp > 0).float() * out.g


def lin_grad(inp, out, w, b):
    inp.g = out.g @ w.t()
    w.g = (inp.unsqueeze(-1) * out.g.unsqueeze(1)).sum(0)
    b.g = out.g.sum(0)


def forward_and_backward(inp, targ):
    l1 = inp @ w1 + b1
    l2 = relu(l1)
    out = l2 @ w2 + b2
    loss = mse(out, targ)
    mse_grad(out, targ)
    lin_grad(l2, out, w2, b2)
    relu_grad(l1, l2)
    lin_grad(inp, l1, w1, b1)


forward_and_backward(x_train, y_train)
w1g, b1g, w2g, b2g, ig = w1.g.clone(), b1.g.clone(), w2.g.clone(), b2.g.clone(), x_train.g.clone()

xt2 = x_train.clone().requires_grad_(True)
w12 = w1.clone().requires_grad_(True)
w22 = w2.clone().requires_grad_(True)
b12 = b1.clone().requires_grad_(True)
b22 = b2.clone().requires_grad_(True)


def forward(inp, targ):
    l1 = inp @ w12 + b12
    l2 = relu(l1)
    out = l2 @ w22 + b22
    return mse(out, targ)


loss = forward(xt2, y_train)
loss.backward()
for a, b in ((w22.grad, w2g), (b22.grad, b2g), (w12.grad, w1g), (b12.grad, b1g), (xt2.grad, ig)):
    print(torch.allclose(a, b, atol=1e-5), a.shape)
print(loss)
