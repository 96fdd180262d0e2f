"""《动手学深度学习》(Dive into Deep Learning, Chinese edition) 2.5 自动求导: y = 2xᵀx and
its gradient 4x, gradients accumulating until zeroed, a non-scalar y, detach, and
Python control flow.

Source: https://zh.d2l.ai/chapter_preliminaries/autograd.html
        (d2l-ai/d2l-zh, chapter_preliminaries/autograd.md, the pytorch tab)
Adapted: the notebook's cell results are printed.
"""
import torch

x = torch.arange(4.0)
print(x)
x.requires_grad_(True)  # 等价于 `x = torch.arange(4.0, requires_grad=True)`
print(x.grad)  # 默认值是None

y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)

x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)

x.grad.zero_()
y = x * x
y.sum().backward()
print(x.grad)

x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)

x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
