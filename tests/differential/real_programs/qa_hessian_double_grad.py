"""Second derivatives with create_graph=True (the questions on Hessians and gradient
penalties): grad of grad, a Hessian built row by row, a Hessian-vector product.

Source: https://apxml.com/courses/advanced-pytorch/chapter-1-pytorch-internals-autograd/higher-order-gradients
Adapted: restated for a function of two variables.
"""
import torch

x = torch.tensor([1., 2.], requires_grad=True)
y = x[0] ** 3 * x[1] + x[1] ** 2
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
rows = [torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(2)]
H = torch.stack(rows)
print(H)
v = torch.tensor([1., -1.])
hv, = torch.autograd.grad(g, x, grad_outputs=v, retain_graph=True)
print(hv, H @ v)
gg, = torch.autograd.grad((g * g).sum(), x)
print(gg)
