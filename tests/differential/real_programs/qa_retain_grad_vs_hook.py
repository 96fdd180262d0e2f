"""Two ways to see an intermediate gradient (answers on non-leaf .grad): register_hook on
y printing its gradient, or y.retain_grad(); reading y.grad without either warns.

Source: https://developpaper.com/an-example-of-gradient-calculation-for-variables-of-non-leaf-nodes-in-python/
        https://runebook.dev/en/docs/pytorch/generated/torch.tensor.retain_grad
Adapted: nothing beyond printing retains_grad.
"""
import torch
from torch.autograd import Variable


def hook_y(grad):
    print(grad)


x = Variable(torch.ones(2, 2), requires_grad=True)
y = x + 2
z = y * y * 3
y.register_hook(hook_y)
out = z.mean()
out.backward()
print(y.grad)

x = Variable(torch.ones(2, 2), requires_grad=True)
y = x + 2
y.retain_grad()
z = y * y * 3
out = z.mean()
out.backward()
print(y.grad, y.retains_grad, x.retains_grad)
