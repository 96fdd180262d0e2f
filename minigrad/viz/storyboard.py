"""A trace cut into frames: what the animation shows at each step, as plain data.

`frames(trace)` replays the recorded events through a small state machine and
takes a snapshot at every step worth a picture: a node created in forward,
backward starting, a node starting, its saved tensors unpacked (the version
check; or, red, a saved tensor that backward needs but a previous backward
already freed: the "second time" error), a node finishing (the gradients it sends out), a hook, a gradient
accumulated into a leaf, backward finishing.  Events that only complete a
step are folded into it: the tensors a node saves join its node_created
frame; the tensors freed after a node ran join its node_finished frame.

The view "apply" shows forward as `Function.apply` does it, each op in five
steps of its own: the node made (no edges yet), its edges connected, forward
run with grad mode off, the outputs attached, the tensors saved.

Each `Frame` is plain data (ids are the trace's small integers), so tests
assert on it without drawing anything; `frame.svg` draws it on first use.
The widget (`player.py`) and the exports (`animation_export.py`) only read frames.

Example::

    >>> import minigrad as torch
    >>> import minigrad.viz as viz
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> with viz.record() as trace:
    ...     x.exp().sum().backward()
    >>> story = viz.frames(trace)
    >>> [f.caption for f in story][:2]
    ['ExpBackward0 is created: it saves 1 tensor for backward', 'SumBackward0 is created']
    >>> story[-1].memory_bytes
    0
"""
from .frame_svg import FrameDrawer
from .settings import resolve_lang, text
from .source_view import SourceView
from .apply_steps import APPLY_CAPTIONS, APPLY_STEPS, apply_caption
from .stage import LEAF_PRIORITY, Stage, format_bytes, format_tensor

VIEWS = ("all", "forward", "backward", "apply")


class Frame:
    """One step of the story.  Plain attributes (see `frames` for their meaning)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)
        self._svg = None

    @property
    def svg(self):
        """The frame drawn as SVG text (deterministic: the same trace gives the same text)."""
        if self._svg is None:
            self._svg = self._drawer.svg(self)
        return self._svg

    def _repr_svg_(self):
        return self.svg

    def __repr__(self):
        return f"<Frame {self.step} {self.phase} {self.event.kind}: {self.caption}>"


def frames(trace, lang=None, *, view="all", names=None):
    """Cut a recorded trace into the frames of an animation.

    Args:
        trace: a `Trace` from `minigrad.viz.record()` (or `minigrad.tracing.record()`).
        lang: "en" or "zh"; default `minigrad.settings.lang`, MINIGRAD_LANG, "en".
        view: "all", or only the "forward" or "backward" frames (renumbered from 0), or
            "apply": the forward frames, each op in the five steps of Function.apply.
        names: optional {"x": x, "loss": loss, ...}: label leaves, outputs and saved
            tensors by the names you gave them.  Without it a leaf is "leaf" ("leaf 1",
            "leaf 2" ... when there are several) and an output "output"; both show
            their shape, and their values when they have at most 4 elements.

    Returns:
        A list of `Frame`, each with: `step`, `phase` ("forward"/"backward"),
        `event` (the event shown) and `events` (with those folded into it),
        `current` (the highlighted node id or None), `nodes_shown` (node ids on
        stage), `alive_saved` [(node, slot)], `saved_states` {(node, slot): state},
        `memory_bytes` (held by saved tensors; a packed one counts what pack_hook
        returned: its nbytes for a tensor or an array, 0 for a path or a handle),
        `failed_check` ((node, slot) when a version check failed at this step),
        `bumped` [(node, slot)] (saved tensors an in-place op changed at this step: they
        turn stale, v0 → v1, before backward finds out),
        `freed_access` ((node, slot) when backward needed a saved tensor that was
        already freed: the "second time" error), `failed` (either), `stale`
        {(node, slot): (saved, now)},
        `unconnected` [box id] (made, its edges not yet connected: view "apply"),
        `unattached` [node] (its outputs not yet attached: view "apply") and `hidden`
        {box id} (their output boxes),
        `ready` [(node, priority)] (next to run first), `dependencies` {node: count},
        `done` (nodes that ran), `grad_edges` [(from, to)] (gradient direction) and
        `flowing` (those of this step), `leaf_grads` {leaf tensor id: text},
        `caption` and `svg`.
    """
    if view not in VIEWS:
        raise ValueError(f"view must be one of {VIEWS}, got {view!r}")
    lang = resolve_lang(lang)
    stage = Stage(trace, lang=lang, names=names)
    story = _Replay(stage, apply_steps=view == "apply").run()
    if view != "all":
        phase = "forward" if view == "apply" else view
        story = [f for f in story if f.phase == phase]
        for step, frame in enumerate(story):
            frame.step = step
    drawer, listing = FrameDrawer(stage, story), SourceView(story, lang,
                                                            callers=view != "apply")
    for frame in story:
        frame._drawer, frame._listing = drawer, listing
    return story


class _Replay:
    """The state machine: applies events, opens and closes frames."""

    OPENERS = {"node_created", "backward_started", "node_started", "grad_accumulated",
               "hook_called", "backward_finished", "saved_tensor_freed_access"}

    def __init__(self, stage, apply_steps=False):
        self.stage, self.trace, self.apply_steps = stage, stage.trace, apply_steps
        self.unconnected, self.unattached = [], []
        self.story, self.open, self.pending = [], None, []
        self.phase, self.current, self.flowing = "forward", None, []
        introduced = {leaf for e in self.trace.of_kind("node_created") for leaf in e["leaves"]}
        self.shown = [n for n in stage.functions if n not in stage.created_at]
        self.shown += [n for n in stage.leaves if n not in introduced]
        self.states, self.stale, self.failed, self.freed_access = {}, {}, None, None
        self.bumped = []
        self.ready, self.dependencies, self.done = [], {}, []
        self.grad_edges, self.leaf_grads = [], {}
        # NOTE: AccumulateGrad runs as soon as it is ready (PyTorch and minigrad give it
        # the top priority, UINT64_MAX); other nodes by sequence number.
        self.priority = {n: LEAF_PRIORITY for n in stage.leaves}
        self.priority.update({e["node"]: e["sequence_nr"]
                              for e in self.trace.of_kind("node_created", "node_found")})
        for event in self.trace.of_kind("node_started"):
            self.priority.update(dict(event["ready"]))

    def run(self):
        for event in self.trace:
            role = self._role(event)
            if role == "open":
                self._close()
                self.flowing, self.failed, self.freed_access = [], None, None
                self.bumped = []
                self._apply(event)
                self.open = [event] + self.pending
                self.pending = []
            elif role == "join":
                self._apply(event)
                self.open.append(event)
            else:                                      # "pend": shown with the next step
                self._close()
                self._apply(event)
                self.pending.append(event)
        if self.pending:
            self.open, self.pending = self.pending, []
        self._close()
        return self.story

    def _role(self, event):
        kind, opened = event.kind, self.open
        if kind in APPLY_STEPS:                  # a step of its own in view "apply" only
            return "open" if self.apply_steps else "pend"
        if kind in ("tensor_freed", "node_found"):
            return "pend"
        if opened is None:
            return "open"
        first = opened[0]
        if (kind == "tensor_saved" and self.apply_steps and first.kind != "tensor_saved"
                and not event["wrapped_number"]):
            return "open"                        # step 5, after the outputs are attached
        if kind in ("tensor_saved", "tensor_packed"):
            return "join"
        if kind == "node_finished":
            return "join" if not event["grads_out"] and first.kind == "grad_accumulated" \
                else "open"
        if kind in ("version_check", "tensor_unpacked"):
            if (event["node"], event["slot"]) not in self.stage.saved:
                return "join"          # a saved number (the 2 of x * 2): no step of its own
            unpacking = first.kind in ("version_check", "tensor_unpacked")
            same = unpacking and first["node"] == event["node"] and self.failed is None
            return "join" if same and event.get("passed", True) else "open"
        return "open" if kind in self.OPENERS else "join"

    # --- applying events to the state ----------------------------------------

    def _apply(self, event):
        handler = getattr(self, "_on_" + event.kind, None)
        if event.get("node") is not None:
            self.current = event["node"]
        if handler is not None:
            handler(event)

    def _on_apply_node_made(self, event):
        if event["node"] not in self.shown:
            self.shown.append(event["node"])
        self.unconnected.append(str(event["node"]))
        self.unattached.append(event["node"])

    def _on_apply_edges_connected(self, event):
        self._forget(self.unconnected, str(event["node"]))
        for node in event["leaves"]:
            if node not in self.shown:
                self.shown.append(node)

    @staticmethod
    def _forget(nodes, node):
        if node in nodes:
            nodes.remove(node)

    def _on_node_created(self, event):
        self._forget(self.unconnected, str(event["node"]))
        self._forget(self.unattached, event["node"])
        for node in list(event["leaves"]) + [event["node"]]:
            if node not in self.shown:
                self.shown.append(node)
        for made in event.get("outputs") or []:     # an in-place op: its output is its input
            for key in self.stage.saved_of_tensor.get(made and made["id"], ()):
                if key[0] != event["node"] and self.states.get(key) in ("saved", "packed"):
                    saved, now = self.stale.get(key, (self.stage.saved[key]["version"],) * 2)
                    self.stale[key] = (saved, now + 1)       # each in-place op bumps it once
                    self.bumped.append(key)

    def _on_node_found(self, event):
        """A node built before recording: what it saved is held (or packed, or freed)."""
        for slot, info in enumerate(event["saved"]):
            if (event["node"], slot) in self.stage.saved:
                self.states[(event["node"], slot)] = (
                    "freed" if info["freed"] else "packed" if info["packed"] else "saved")

    def _on_tensor_saved(self, event):
        if not event["wrapped_number"]:
            self.states[(event["node"], event["slot"])] = "saved"

    def _on_tensor_packed(self, event):
        self._set_state(event, "packed")

    def _on_tensor_unpacked(self, event):
        self._set_state(event, "unpacked")

    def _on_tensor_freed(self, event):
        self._set_state(event, "freed")

    def _set_state(self, event, state):
        key = (event["node"], event["slot"])
        if key in self.states:
            self.states[key] = state

    def _on_version_check(self, event):
        if not event["passed"]:
            key = (event["node"], event["slot"])
            self.failed = key
            self.stale[key] = (event["saved_version"], event["current_version"])

    def _on_saved_tensor_freed_access(self, event):
        self.freed_access = (event["node"], event["slot"])

    def _on_backward_started(self, event):
        self.phase = "backward"
        self.current = event["roots"][0] if event["roots"] else None
        self.dependencies = dict(event["dependencies"])
        self.grad_edges, self.done = [], []
        self.ready = self._sorted([(r, self.priority.get(r)) for r in event["roots"]
                                   if self.dependencies.get(r, 0) == 0])

    def _on_node_started(self, event):
        self.ready = list(event["ready"])

    def _on_node_finished(self, event):
        node = event["node"]
        self.done.append(node)
        for (child, _), grad in zip(event["edges"], event["grads_out"]):
            if child is not None and grad is not None:
                self.flowing.append((node, child))
                if (node, child) not in self.grad_edges:
                    self.grad_edges.append((node, child))
        self.dependencies.update(event["dependencies"])
        newly = [(n, self.priority.get(n)) for n, count in event["dependencies"].items()
                 if count == 0]
        self.ready = self._sorted(self.ready + newly)

    def _on_grad_accumulated(self, event):
        self.leaf_grads[event["leaf"]] = format_tensor(event["grad"])

    def _on_backward_finished(self, event):
        self.current, self.ready = None, []

    @staticmethod
    def _sorted(ready):
        """The engine's order: the highest sequence number runs first (stable otherwise)."""
        return sorted(ready, key=lambda item: -(item[1] if item[1] is not None else -1))

    # --- snapshots -------------------------------------------------------------

    def _close(self):
        """Take the snapshot of the open step, if there is one."""
        if self.open is None:
            return
        events, self.open = self.open, None
        event = events[0]
        phase = "backward" if self.phase == "backward" else "forward"
        alive = [key for key, state in self.states.items() if state != "freed"]
        frame = Frame(
            step=len(self.story), phase=phase, event=event, events=events, where=event.where,
            current=self.current, nodes_shown=list(self.shown), alive_saved=alive,
            saved_states=dict(self.states), stale=dict(self.stale),
            memory_bytes=sum(self.stage.held_bytes(key) for key in alive),
            failed_check=self.failed, freed_access=self.freed_access,
            failed=self.failed is not None or self.freed_access is not None,
            bumped=list(self.bumped),
            unconnected=list(self.unconnected), unattached=list(self.unattached),
            hidden={out for out, root in self.stage.outputs.items() if root in self.unattached},
            apply_steps=self.apply_steps,
            ready=list(self.ready),
            dependencies=dict(self.dependencies), done=list(self.done),
            grad_edges=list(self.grad_edges), flowing=list(self.flowing),
            leaf_grads=dict(self.leaf_grads))
        frame.caption = caption(frame, self.stage)
        self.story.append(frame)
        if event.kind == "backward_finished":
            self.phase = "forward"


def _count(lang, number, noun):
    """'1 tensor', '2 tensors' / '2 个张量'."""
    return text(lang, noun + ("_one" if number == 1 else "_many"), n=number)


def _hook_words(stage, event):
    """What hook ran: "tensor hook (register_hook)", or "tensor hook of y (...)" when the
    node made one tensor and the student named it (`names=`)."""
    hook = event["hook"]
    made = stage.made.get(event["node"]) or []
    if hook in ("tensor", "retain_grad") and len(made) == 1 and made[0] is not None:
        tensor = stage.names.get(made[0]["id"])
        if tensor is not None:
            return text(stage.lang, f"hook_{hook}_of", tensor=tensor)
    return text(stage.lang, "hook_" + hook)


def caption(frame, stage):
    """One sentence, in the stage's language, saying what happens at this step."""
    lang, event, names = stage.lang, frame.event, stage.trace.names
    kind = event.kind
    name = names.get(event.get("node"), "?")
    if frame.apply_steps and kind in APPLY_CAPTIONS:
        return apply_caption(frame, stage, name, _count)
    if kind == "node_created":
        saved = sum(e.kind == "tensor_saved" and not e["wrapped_number"] for e in frame.events)
        if frame.bumped:
            key = frame.bumped[0]
            version, current = frame.stale[key]
            return text(lang, "cap_created_bumps", name=name, owner=names.get(key[0], "?"),
                        version=version, current=current)
        if saved:
            return text(lang, "cap_created_saves", name=name,
                        tensors=_count(lang, saved, "tensor"))
        return text(lang, "cap_created", name=name)
    if kind == "backward_started":
        return text(lang, "cap_backward_started", name=names.get(frame.current, "?"))
    if kind == "node_started":
        got = sum(g is not None for g in event["grads_in"])
        said = text(lang, "cap_started", name=name, grads=_count(lang, got, "grad"))
        if frame.ready:
            said += text(lang, "cap_waiting", n=len(frame.ready))
        return said
    if kind == "saved_tensor_freed_access":
        return text(lang, "cap_freed_access", name=name)
    if frame.failed_check is not None:
        saved, now = frame.stale[frame.failed_check]
        return text(lang, "cap_check_failed", name=name, version=saved, current=now)
    if kind in ("version_check", "tensor_unpacked"):
        count = sum(e.kind == "tensor_unpacked" and (e["node"], e["slot"]) in stage.saved
                    for e in frame.events)
        checked = any(e.kind == "version_check" for e in frame.events)
        return text(lang, "cap_unpacked" if checked else "cap_unpacked_hooks", name=name,
                    tensors=_count(lang, count, "tensor"))
    if kind == "node_finished":
        out = sum(g is not None for g in event["grads_out"])
        said = text(lang, "cap_finished", name=name, grads=_count(lang, out, "grad"))
        freed = sum(e.kind == "tensor_freed" and (e["node"], e["slot"]) in stage.saved
                    for e in frame.events)
        if freed:
            said += text(lang, "cap_freed", tensors=_count(lang, freed, "tensor"))
        return said
    if kind == "grad_accumulated":
        leaf = stage.leaf_name(event["node"])
        return text(lang, "cap_accumulated", leaf=leaf, grad=frame.leaf_grads[event["leaf"]])
    if kind == "hook_called":
        return text(lang, "cap_hook", hook=_hook_words(stage, event), name=name)
    if kind == "backward_finished":
        return text(lang, "cap_finished_all", memory=format_bytes(frame.memory_bytes))
    if kind == "tensor_freed":
        return text(lang, "cap_freed_only", name=name)
    return kind
