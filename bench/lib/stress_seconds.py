"""Per-second latency of a stress run: the summary, and the .99 column second by second.

python3 bench/lib/stress_seconds.py RAW/cassette-stress-lwt-insert.txt [more files]
"""
import sys,re
for f in sys.argv[1:]:
    rows=[]
    for line in open(f):
        if line.startswith('total,'):
            c=[x.strip() for x in line.split(',')]
            rows.append((float(c[11]),int(c[2]),float(c[6]),float(c[8])))  # time, op/s, med, p99
    summ={k:re.search(k+r'\s*:\s*([\d,.]+)',open(f).read()) for k in ('Op rate','Latency median','Latency 95th percentile','Latency 99th percentile','Latency max','Total errors')}
    print(f); print(' '.join('%s=%s'%(k,v.group(1) if v else '-') for k,v in summ.items()))
    p=[r[3] for r in rows]
    if p:
        s=sorted(p); print('seconds %d; per-second p99 ms: median %.0f, max %.0f; seconds with p99 > 1000 ms: %d' % (len(p), s[len(s)//2], s[-1], sum(1 for x in p if x>1000)))
        print('per-second p99:', ' '.join('%.0f'%x for x in p))
