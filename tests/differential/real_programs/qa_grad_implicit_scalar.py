""""grad can be implicitly created only for scalar outputs" (the question and its
answers): backward on a vector needs a gradient argument; sum() or ones_like make the
same.

Source: https://stackoverflow.com/questions/54754153/autograd-grad-for-tensor-in-pytorch/54757383
        https://www.pythonclear.com/errors/runtimeerror-grad-can-be-implicitly-created-only-for-scalar-outputs/
Adapted: restated in a few lines.
"""
import torch

x = torch.linspace(-2, 2, 5, requires_grad=True)
y = x ** 2
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

y.backward(torch.ones_like(y), retain_graph=True)
print(x.grad)
x.grad.zero_()
y.sum().backward()
print(x.grad)
x.grad = None
y2 = x ** 3
y2.backward(gradient=torch.tensor([1., 0., 0., 0., 2.]))
print(x.grad)
