"""Dive into Deep Learning 2.5 Automatic Differentiation (English edition, 1.0): the same
steps with backward(gradient=...) for a vector y, and the exercise "run backward twice".

Source: https://d2l.ai/chapter_preliminaries/autograd.html
        (d2l-ai/d2l-en, chapter_preliminaries/autograd.md, the pytorch tab)
Adapted: the cell results are printed; the exercise's second backward is caught.
"""
import torch

x = torch.arange(4.0)
x.requires_grad_(True)
print(x.grad)  # The gradient is None by default

y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)

x.grad.zero_()  # Reset the gradient
y = x.sum()
y.backward()
print(x.grad)

x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))  # Faster: y.sum().backward()
print(x.grad)

x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)

y = 2 * torch.dot(x, x)
y.backward()
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
