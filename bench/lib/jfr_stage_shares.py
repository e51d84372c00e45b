#!/usr/bin/env python3
"""jfr_stage_shares.py FILE.jfr: shares of the CPU samples of a Redis-door load (bench/resp-alloc) by stage of a command:
parse, dispatch, key metadata lookup, read-before-write, storage write, response; other threads apart.
Java samples only: time in system calls (socket reads and writes) is not in them."""
import sys, re, subprocess, collections
f = sys.argv[1]
txt = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "96", f],
                     capture_output=True, text=True).stdout
RULES = [  # checked in order against every frame of a sample: the first rule any frame matches wins
  ("key metadata lookup (MetaCache/KnownKeys)", r"io\.cassette\.resp\.keyspace\.(MetaCache|KnownKeys)\."),
  ("storage write (Batch.commit: coordinator, commit log, memtable)", r"io\.cassette\.resp\.keyspace\.Batch\.commit"),
  ("write objects (Batch building, KeyMeta encode)", r"io\.cassette\.resp\.keyspace\.(Batch|KeyMeta)\."),
  ("read-before-write (storage read of metadata)", r"io\.cassette\.resp\.keyspace\.RedisTable\.read"),
  ("parse (RespDecoder)", r"io\.cassette\.resp\.protocol\.(RespDecoder|Request)"),
  ("response encode (Reply)", r"io\.cassette\.resp\.protocol\.Reply\."),
  ("response flush (ServerContext.write, socket write)", r"ServerContext\.write|CommandDispatcher\.finish|\.flush|doWrite|ChannelOutboundBuffer"),
  ("command code (handlers)", r"io\.cassette\.resp\.command\."),
  ("dispatch (CommandDispatcher, names, context)", r"io\.cassette\.resp\.server\.(CommandDispatcher|CommandNames)|CommandContext"),
  ("socket read (netty)", r"NioByteUnsafe\.read|ByteToMessage|channelRead|ConnectionHandler"),
  ("event loop / select / tasks", r"io\.netty\."),
]
agg = collections.Counter(); tot = 0
for ev in txt.split("jdk.ExecutionSample")[1:]:
    m = re.search(r'sampledThread = "([^"]+)"', ev)
    th = re.sub(r'-\d+', '', m.group(1)) if m else '?'
    frames = [l.strip() for l in ev.splitlines() if re.match(r'\s+[\w$.]+\(', l)]
    if th != 'resp-io':
        cat = "other thread: " + th
    else:
        cat = "other (resp-io)"
        for name, pat in RULES:
            if any(re.search(pat, fr) for fr in frames):
                cat = name; break
    agg[cat] += 1; tot += 1
print(f"{f}: {tot} samples")
for k, v in agg.most_common(): print(f"  {100*v/tot:5.1f}%  {k}")
