import sys, re, subprocess, collections
agg = collections.Counter(); top = collections.Counter(); tot = 0
for f in sys.argv[1:]:
    txt = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "96", f], capture_output=True, text=True).stdout
    for ev in txt.split("jdk.ExecutionSample")[1:]:
        m = re.search(r'sampledThread = "([^"]+)"', ev)
        th = re.sub(r'-\d+', '', m.group(1)) if m else '?'
        frames = [l.strip() for l in ev.splitlines() if re.match(r'\s+[\w$.]+\(', l)]
        if th != 'resp-io':
            continue
        tot += 1
        joined = '\n'.join(frames)
        if 'io.cassette.storage.memtable' in joined: c = 'storage: memtable'
        elif 'io.cassette.storage.commitlog' in joined: c = 'storage: commit log'
        elif re.search(r'io\.cassette\.storage\.', joined) and 'Batch.commit' in joined: c = 'storage: other (under Batch.commit)'
        elif 'io.cassette.coordinator' in joined and 'Batch.commit' in joined: c = 'coordinator (under Batch.commit)'
        elif 'Batch.commit' in joined: c = 'resp: Batch.commit own'
        elif re.search(r'io\.cassette\.resp\.keyspace\.(MetaCache|KnownKeys)', joined): c = 'resp: metadata cache'
        elif re.search(r'RedisTable\.read|io\.cassette\.storage\.', joined): c = 'storage read / other storage'
        elif re.search(r'io\.cassette\.resp\.protocol\.(RespDecoder|Request)', joined): c = 'resp: parse'
        elif re.search(r'io\.cassette\.resp\.protocol\.Reply', joined): c = 'resp: reply encode'
        elif re.search(r'ServerContext\.write|CommandDispatcher\.finish|\.flush|doWrite|ChannelOutboundBuffer', joined): c = 'resp: response flush (netty write)'
        elif re.search(r'io\.cassette\.resp\.(command|keyspace)\.', joined): c = 'resp: command code + batch building'
        elif re.search(r'io\.cassette\.resp\.server|CommandContext', joined): c = 'resp: dispatch'
        elif re.search(r'NioByteUnsafe\.read|ByteToMessage|channelRead|ConnectionHandler', joined): c = 'netty: socket read'
        else: c = 'netty/other: loop, select, tasks'
        agg[c] += 1
        if frames: top[frames[0].split('(')[0]] += 1
print(f"{sys.argv[1:]}: {tot} resp-io samples")
for k, v in agg.most_common(): print(f"  {100*v/tot:5.1f}%  {k}")
print("  top self frames (resp-io):")
for k, v in top.most_common(15): print(f"    {100*v/tot:5.1f}%  {k}")
