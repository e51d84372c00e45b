"""Where threads of a Cassette node waited: fsyncs (>= the recording threshold) by owner (Paxos log,
commit log, other) and the monitors waited on longest. For bench/ring --jfr recordings:
python3 bench/lib/jfr_stalls.py OUT/raw/cassette/node*-lwt-insert.jfr
"""
import json,subprocess,sys,re,collections
def dur(s):
    m=re.match(r'PT(?:(\d+)H)?(?:(\d+)M)?([\d.]+)S',s)
    return (int(m.group(1) or 0)*3600+int(m.group(2) or 0)*60+float(m.group(3)))*1000
for f in sys.argv[1:]:
    out=subprocess.run(['jfr','print','--json','--events','jdk.FileForce,jdk.JavaMonitorEnter',f],capture_output=True,text=True).stdout
    ev=json.loads(out)['recording']['events']
    ff=collections.defaultdict(list); me=collections.defaultdict(float); mec=collections.Counter()
    for e in ev:
        v=e['values']; st=v.get('stackTrace')
        fr=[x['method']['type']['name'].split('/')[-1]+'.'+x['method']['name'] for x in (st['frames'] if st else [])]
        if e['type']=='jdk.FileForce':
            k='paxos' if any('PaxosLog' in x for x in fr) else 'commitlog' if any('CommitLog' in x for x in fr) else 'other'
            ff[k].append(dur(v['duration']))
        else:
            k=v['monitorClass']['name'].split('/')[-1] if v.get('monitorClass') else '?'
            k2=k+' in '+(fr[0] if fr else '?')
            me[k2]+=dur(v['duration']); mec[k2]+=1
    print(f)
    for k,l in ff.items():
        l.sort(); print('  fsync>=10ms %-9s n=%d sum=%.1fs p50=%.0fms max=%.0fms'%(k,len(l),sum(l)/1000,l[len(l)//2],l[-1]))
    for k,v in sorted(me.items(),key=lambda x:-x[1])[:3]:
        print('  monitor wait>=10ms %s: n=%d sum=%.1fs'%(k,mec[k],v/1000))
