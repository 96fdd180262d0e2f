"""The focal loss of focal_loss_pytorch (copied into many projects): log_softmax
without dim (a warning), gather of the target's log-probability, pt through
Variable(logpt.data.exp()) so that it gets no gradient, a per-class alpha made with
torch.Tensor and matched with .type()/.type_as().

Source: https://github.com/clcarwin/focal_loss_pytorch/blob/master/focalloss.py
        (clcarwin/focal_loss_pytorch, focalloss.py: FocalLoss)
Adapted: the nn.Module's forward is a function of the loss's settings.
"""
import torch
import torch.nn.functional as F
from torch.autograd import Variable


def focal_loss(input, target, gamma=0, alpha=None, size_average=True):
    if isinstance(alpha, (float, int)):
        alpha = torch.Tensor([alpha, 1 - alpha])
    if isinstance(alpha, list):
        alpha = torch.Tensor(alpha)
    if input.dim() > 2:
        input = input.view(input.size(0), input.size(1), -1)  # N,C,H,W => N,C,H*W
        input = input.transpose(1, 2)    # N,C,H*W => N,H*W,C
        input = input.contiguous().view(-1, input.size(2))   # N,H*W,C => N*H*W,C
    target = target.view(-1, 1)

    logpt = F.log_softmax(input)
    logpt = logpt.gather(1, target)
    logpt = logpt.view(-1)
    pt = Variable(logpt.data.exp())

    if alpha is not None:
        if alpha.type() != input.data.type():
            alpha = alpha.type_as(input.data)
        at = alpha.gather(0, target.data.view(-1))
        logpt = logpt * Variable(at)

    loss = -1 * (1 - pt)**gamma * logpt
    if size_average:
        return loss.mean()
    else:
        return loss.sum()


x = torch.randn(6, 2, requires_grad=True)
t = torch.tensor([0, 1, 1, 0, 1, 0])
loss = focal_loss(x, t, gamma=2, alpha=0.25)
loss.backward()
print(loss, x.grad)
y = torch.randn(2, 3, 2, 2, requires_grad=True)
loss = focal_loss(y, torch.tensor([[[0, 1], [2, 2]], [[1, 0], [0, 2]]]), gamma=1,
                  size_average=False)
loss.backward()
print(loss, y.grad.sum(dim=(2, 3)))
