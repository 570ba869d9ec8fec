"""Trains tetrarch's learned evaluation on the inputs `tetrarch datagen --export` writes, and
writes the quantized network in the engine's format (docs/nnue.md).

    python trainer/train.py INPUTS.nnin [more.nnin ...] --out judkins.nnue

The network: the game's inputs summed by a feature transformer shared by both perspectives
(the side to move's and the other's), the two halves side to move first, clipped ReLU, a hidden
layer of 32, clipped ReLU, one output in centipawns. The target blends the game's result and
the search's score: lambda * result + (1 - lambda) * sigmoid(score / K), against
sigmoid(output / K).
"""

import argparse
import json
import os
import struct
import sys
import time

import numpy as np

MAGIC_IN = b"TNNUEIN2"
# The first inputs format, without the game's own evaluation.
MAGIC_IN_1 = b"TNNUEIN1"
MAGIC_NET = b"TNNUE002"
NO_FEATURE = 0xFFFF
# Quantization: the transformer's outputs clip to [0, 1], held as [0, QA]; the later layers'
# weights as multiples of 1 / QB.
QA = 127
QB = 64


def read_inputs(paths):
    """The records of one or more input files: (us, them, score, result, held) arrays."""
    parts, meta = [], None
    for path in paths:
        with open(path, "rb") as f:
            magic = f.read(8)
            if magic not in (MAGIC_IN, MAGIC_IN_1):
                sys.exit("%s: not a file of network inputs (tetrarch datagen --export)" % path)
            (n,) = struct.unpack("<H", f.read(2))
            variant = f.read(n).decode()
            features, active = struct.unpack("<II", f.read(8))
            if meta is not None and meta != (variant, features, active):
                sys.exit("%s: %s inputs among %s inputs" % (path, variant, meta[0]))
            meta = (variant, features, active)
            fields = [("slots", "<u2", (2 * active,)), ("score", "<i2"), ("own", "<i2"), ("result", "u1"), ("held", "u1")]
            if magic == MAGIC_IN_1:
                fields = [f for f in fields if f[0] != "own"]
            part = np.frombuffer(f.read(), dtype=np.dtype(fields))
            if magic == MAGIC_IN_1:
                # No own evaluation stored: NaN, which --base own refuses.
                full = np.zeros(len(part), dtype=np.dtype([(f[0], f[1]) + f[2:] for f in
                                                          [("slots", "<u2", (2 * active,)), ("score", "<i2"),
                                                           ("own", "<f4"), ("result", "u1"), ("held", "u1")]]))
                for name in ("slots", "score", "result", "held"):
                    full[name] = part[name]
                full["own"] = np.nan
                part = full
            else:
                part = part.astype([("slots", "<u2", (2 * active,)), ("score", "<i2"), ("own", "<f4"),
                                    ("result", "u1"), ("held", "u1")])
            parts.append(part)
    data = np.concatenate(parts)
    return meta, data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", required=True, help="the network file to write")
    ap.add_argument("--hidden", type=int, default=128, help="the feature transformer's width per perspective")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--lr", type=float, default=1e-3, help="the first epoch's; it falls along a cosine")
    ap.add_argument("--patience", type=int, default=3,
                    help="stop after this many epochs without a lower validation loss")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.5, help="the result's share of the target, 0 to 1")
    ap.add_argument("--scale", type=float, default=400.0, help="K: centipawns per unit of the sigmoid's argument")
    ap.add_argument("--base", choices=["none", "own"], default="none",
                    help="own: the network learns a correction added to the game's own evaluation")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--init", help="start from this network file (the engine's format) instead of random weights: "
                    "training goes on from a network trained before, on new data or with other settings")
    ap.add_argument("--check-out", help="also write, as JSON, the inputs of the first 100 held-out positions with the "
                    "quantized network's evaluation of each and the float network's, for the engine's tests to hold "
                    "its arithmetic to")
    args = ap.parse_args()
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=true intra_op_parallelism_threads=%d" % args.threads)

    import jax
    import jax.numpy as jnp
    import optax

    (variant, features, active), data = read_inputs(args.inputs)
    slots = data["slots"].astype(np.int32)
    # An empty slot points at one row past the inputs, which is kept at zero.
    slots[slots == NO_FEATURE] = features
    us, them = slots[:, :active], slots[:, active:]
    score = data["score"].astype(np.float32)
    own = data["own"].astype(np.float32)
    if args.base == "own" and np.isnan(own).any():
        sys.exit("--base own: the inputs hold no own evaluation (exported before TNNUEIN2)")
    base = own if args.base == "own" else np.zeros_like(own)
    result = data["result"].astype(np.float32) / 2.0
    target = args.lam * result + (1.0 - args.lam) * (1.0 / (1.0 + np.exp(-score / args.scale)))
    held = data["held"] == 1
    train, valid = ~held, held
    print("%s: %d positions, %d for training, %d held out; %d inputs, %d active at most"
          % (variant, len(data), train.sum(), valid.sum(), features, active), flush=True)

    H = args.hidden
    key = jax.random.PRNGKey(args.seed)
    k1, k2, k3 = jax.random.split(key, 3)
    params = {
        "ft_w": jax.random.normal(k1, (features + 1, H)) * (1.0 / np.sqrt(active)),
        "ft_b": jnp.zeros((H,)),
        "l1_w": jax.random.normal(k2, (2 * H, 32)) * (1.0 / np.sqrt(2 * H)),
        "l1_b": jnp.zeros((32,)),
        "l2_w": jax.random.normal(k3, (32, 1)) * (1.0 / np.sqrt(32)),
        "l2_b": jnp.zeros((1,)),
    }
    if args.init:
        params = read_net(args.init, variant, features, args.scale, args.base == "own")
        H = params["ft_w"].shape[1]
        if H != args.hidden:
            print("--init: the network is %d wide, not --hidden's %d: it stays %d wide" % (H, args.hidden, H), flush=True)
            args.hidden = H
    pad_mask = jnp.ones((features + 1, 1)).at[features].set(0.0)

    def forward(p, us, them):
        w = p["ft_w"] * pad_mask
        a = jnp.take(w, us, axis=0).sum(axis=1) + p["ft_b"]
        b = jnp.take(w, them, axis=0).sum(axis=1) + p["ft_b"]
        x = jnp.clip(jnp.concatenate([a, b], axis=1), 0.0, 1.0)
        x = jnp.clip(x @ p["l1_w"] + p["l1_b"], 0.0, 1.0)
        # The output is in centipawns; the scale keeps the last layer's weights near 1.
        return (x @ p["l2_w"] + p["l2_b"])[:, 0] * args.scale

    def loss_fn(p, us, them, b, t):
        pred = jax.nn.sigmoid((forward(p, us, them) + b) / args.scale)
        return jnp.mean((pred - t) ** 2)

    # The learning rate falls along a cosine to a tenth over the epochs asked for.
    per_epoch = max(1, int(train.sum()) // args.batch)
    opt = optax.adam(optax.cosine_decay_schedule(args.lr, args.epochs * per_epoch, alpha=0.1))
    state = opt.init(params)
    # The hidden layer's weights stay where its i8 quantization reaches (x QB), so that the
    # quantized network is the one trained.
    l1_limit = 127.0 / QB

    @jax.jit
    def step(p, s, us, them, b, t):
        loss, g = jax.value_and_grad(loss_fn)(p, us, them, b, t)
        upd, s = opt.update(g, s, p)
        p = optax.apply_updates(p, upd)
        p["l1_w"] = jnp.clip(p["l1_w"], -l1_limit, l1_limit)
        return p, s, loss

    eval_loss = jax.jit(loss_fn)
    rng = np.random.default_rng(args.seed)
    tr = np.flatnonzero(train)
    va = np.flatnonzero(valid)

    def validation(p):
        if len(va) == 0:
            return float("nan")
        total = 0.0
        for i in range(0, len(va), 65536):
            j = va[i:i + 65536]
            total += float(eval_loss(p, us[j], them[j], base[j], target[j])) * len(j)
        return total / len(va)

    if len(va) and not np.isnan(own).any():
        own_loss = float(np.mean((1.0 / (1.0 + np.exp(-own[va] / args.scale)) - target[va]) ** 2))
        print("the game's own evaluation alone: valid %.6f" % own_loss, flush=True)
    if args.init:
        print("the network of --init: valid %.6f" % validation(params), flush=True)
    start = time.time()
    seen = 0
    history = []
    # The network written is the epoch's with the lowest validation loss; training stops once
    # `patience` epochs in a row did not lower it.
    best, best_params, since_best = float("inf"), params, 0
    for epoch in range(1, args.epochs + 1):
        rng.shuffle(tr)
        losses = []
        for i in range(0, len(tr) - args.batch + 1 if len(tr) >= args.batch else 1, args.batch):
            j = tr[i:i + args.batch]
            params, state, loss = step(params, state, us[j], them[j], base[j], target[j])
            losses.append(float(loss))
            seen += len(j)
        v = validation(params)
        rate = seen / (time.time() - start)
        history.append({"epoch": epoch, "train": float(np.mean(losses)), "valid": v})
        print("epoch %d train %.6f valid %.6f (%.0f positions/s)" % (epoch, np.mean(losses), v, rate), flush=True)
        if not v >= best:
            best, best_params, since_best = v, params, 0
        else:
            since_best += 1
            if since_best >= args.patience:
                print("no lower validation loss for %d epochs: stopping" % since_best, flush=True)
                break

    p = {k: np.asarray(v) for k, v in best_params.items()}
    p["ft_w"] = p["ft_w"][:features]
    write_net(args.out, variant, features, active, H, p, args.scale, args.base == "own")
    qv = quantized_check(p, us[va], them[va], args.scale, features) if len(va) else (float("nan"), float("nan"))
    print("wrote %s (%d bytes); quantized against float on the held-out positions: mean |diff| %.1f cp, max %.1f cp"
          % (args.out, os.path.getsize(args.out), qv[0], qv[1]))
    if args.check_out and len(va):
        j = va[:100]
        q = quantize(p, args.scale)
        cp = quantized_forward(q, us[j], them[j], features)
        fl = float_forward(p, us[j], them[j], args.scale)
        strip = lambda row: [int(f) for f in row if f != features]
        with open(args.check_out, "w") as f:
            json.dump([{"us": strip(us[i]), "them": strip(them[i]), "cp": float(c), "float": float(x)}
                       for i, c, x in zip(j, cp, fl)], f)
    print(json.dumps({"variant": variant, "positions": int(len(data)), "held_out": int(valid.sum()),
                      "final_valid_loss": best if history else None,
                      "epochs_run": len(history),
                      "settings": {k: v for k, v in vars(args).items() if k not in ("inputs", "out")}}))


def quantize(p, scale):
    """The network's integers, as docs/nnue.md lays them out."""
    ft_w = np.clip(np.round(p["ft_w"] * QA), -32768, 32767).astype(np.int16)
    ft_b = np.clip(np.round(p["ft_b"] * QA), -32768, 32767).astype(np.int16)
    l1_w = np.clip(np.round(p["l1_w"] * QB), -128, 127).astype(np.int8)
    l1_b = np.round(p["l1_b"] * QA * QB).astype(np.int32)
    # The output layer: centipawns = (sum of hidden (0..QA) x weight) / (QA * QB), the weight
    # carrying the centipawn scale.
    l2_w = np.clip(np.round(p["l2_w"][:, 0] * scale * QB), -32768, 32767).astype(np.int16)
    l2_b = np.round(p["l2_b"] * scale * QA * QB).astype(np.int32)
    return ft_w, ft_b, l1_w, l1_b, l2_w, l2_b


def quantized_forward(q, us, them, features):
    """The engine's integer arithmetic, in numpy: what the exported network evaluates to."""
    ft_w, ft_b, l1_w, l1_b, l2_w, l2_b = q
    w = np.vstack([ft_w.astype(np.int32), np.zeros((1, ft_w.shape[1]), np.int32)])
    a = w[us].sum(axis=1) + ft_b
    b = w[them].sum(axis=1) + ft_b
    x = np.clip(np.concatenate([a, b], axis=1), 0, QA)
    h = x @ l1_w.astype(np.int32) + l1_b
    h = np.clip(h // QB, 0, QA)
    out = h @ l2_w.astype(np.int64) + l2_b
    return out / (QA * QB)


def float_forward(p, us, them, scale):
    """The trained float network, in numpy (the base evaluation not added)."""
    w = np.vstack([p["ft_w"], np.zeros((1, p["ft_w"].shape[1]))])
    a = w[us].sum(axis=1) + p["ft_b"]
    b = w[them].sum(axis=1) + p["ft_b"]
    x = np.clip(np.concatenate([a, b], axis=1), 0, 1)
    h = np.clip(x @ p["l1_w"] + p["l1_b"], 0, 1)
    return (h @ p["l2_w"] + p["l2_b"])[:, 0] * scale


def quantized_check(p, us, them, scale, features):
    q = quantize(p, scale)
    qo = quantized_forward(q, us, them, features)
    fo = float_forward(p, us, them, scale)
    d = np.abs(qo - fo)
    return float(d.mean()), float(d.max())


def read_net(path, variant, features, scale, adds_own):
    """A network file's weights as the float parameters `write_net` quantized (each integer
    divided by its scale), with the padding row the trainer keeps: training can go on from it."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:8] != MAGIC_NET:
        sys.exit("%s: not a network file of format %s" % (path, MAGIC_NET.decode()))
    (n,) = struct.unpack_from("<H", raw, 8)
    at = 10 + n
    name = raw[10:at].decode()
    f_, a_, h, l, qa, qb, base = struct.unpack_from("<IIIIIII", raw, at)
    at += 28
    if name != variant or f_ != features or l != 32 or (qa, qb) != (QA, QB) or bool(base) != adds_own:
        sys.exit("%s: a %s network of %d inputs, hidden layer %d, QA %d, QB %d, base %s: it does not fit %s inputs of "
                 "%d with --base %s" % (path, name, f_, l, qa, qb, "own" if base else "none", variant, features,
                                        "own" if adds_own else "none"))
    out = {}
    for key, dtype, shape, div in (("ft_w", "<i2", (features, h), QA), ("ft_b", "<i2", (h,), QA),
                                   ("l1_w", "<i1", (2 * h, 32), QB), ("l1_b", "<i4", (32,), QA * QB),
                                   ("l2_w", "<i2", (32, 1), scale * QB), ("l2_b", "<i4", (1,), scale * QA * QB)):
        count = int(np.prod(shape))
        arr = np.frombuffer(raw, dtype=dtype, count=count, offset=at).reshape(shape)
        at += count * np.dtype(dtype).itemsize
        out[key] = arr.astype(np.float32) / div
    if at != len(raw):
        sys.exit("%s: %d bytes past the network" % (path, len(raw) - at))
    out["ft_w"] = np.vstack([out["ft_w"], np.zeros((1, h), np.float32)])
    return out


def write_net(path, variant, features, active, hidden, p, scale, adds_own):
    ft_w, ft_b, l1_w, l1_b, l2_w, l2_b = quantize(p, scale)
    name = variant.encode()
    with open(path, "wb") as f:
        f.write(MAGIC_NET)
        f.write(struct.pack("<H", len(name)))
        f.write(name)
        f.write(struct.pack("<IIII", features, active, hidden, 32))
        f.write(struct.pack("<II", QA, QB))
        f.write(struct.pack("<I", 1 if adds_own else 0))
        for arr in (ft_w, ft_b, l1_w, l1_b, l2_w, l2_b):
            f.write(np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes())


if __name__ == "__main__":
    main()
