package io.cassette.bench.jmh;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.lang.reflect.Field;

/**
 * What one element read of a shared array costs by each way of reading it, under the JIT it
 * runs with (the board's: {@code -XX:TieredStopAtLevel=1}): AtomicReferenceArray.get, an array
 * VarHandle's getAcquire/getOpaque (Object[] and a typed array), a plain read, and
 * sun.misc.Unsafe.getObjectVolatile with a bounds check (what storage's SharedArrays did in 88365b9, reverted: the gain did not show beyond a memtable get).
 * 65,536 random reads of a 4,096-element array per call, the ways alternating, ns per read of
 * the last 300 of 400 rounds, by the thread's CPU time (run it twice).
 * {@code java -XX:TieredStopAtLevel=1 -cp bench/target/classes io.cassette.bench.jmh.ArrayAccessProbe}
 */
@SuppressWarnings("removal")
public final class ArrayAccessProbe {
  private ArrayAccessProbe() {}

  static final class E {
    final int v;

    E(int v) {
      this.v = v;
    }
  }

  static final VarHandle OBJ = MethodHandles.arrayElementVarHandle(Object[].class);
  static final VarHandle TYP = MethodHandles.arrayElementVarHandle(E[].class);
  static final sun.misc.Unsafe U;
  static final long BASE, SHIFT;

  static {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      U = (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
    BASE = U.arrayBaseOffset(Object[].class);
    SHIFT = 31 - Integer.numberOfLeadingZeros(U.arrayIndexScale(Object[].class));
  }

  static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
  static final int N = 4096;
  static final AtomicReferenceArray<E> ara = new AtomicReferenceArray<>(N);
  static final Object[] oa = new Object[N];
  static final E[] ea = new E[N];
  static final int[] idx = new int[1<<16];
  static int araSum(){int s=0; for(int i:idx){E e=ara.get(i); s+=e.v;} return s;}
  static int vhAcq(){int s=0; for(int i:idx){E e=(E)OBJ.getAcquire(oa,i); s+=e.v;} return s;}
  static int vhOpq(){int s=0; for(int i:idx){E e=(E)OBJ.getOpaque(oa,i); s+=e.v;} return s;}
  static int vhTyp(){int s=0; for(int i:idx){E e=(E)TYP.getAcquire(ea,i); s+=e.v;} return s;}
  static int plain(){int s=0; for(int i:idx){E e=(E)oa[i]; s+=e.v;} return s;}
  static int unsafeVol(){int s=0; for(int i:idx){ if (i>=oa.length) throw new ArrayIndexOutOfBoundsException(); E e=(E)U.getObjectVolatile(oa, BASE+((long)i<<SHIFT)); s+=e.v;} return s;}
  interface B { int run(); }
  public static void main(String[] a){
    java.util.Random r=new java.util.Random(1);
    for(int i=0;i<N;i++){E e=new E(i); ara.set(i,e); oa[i]=e; ea[i]=e;}
    for(int i=0;i<idx.length;i++) idx[i]=r.nextInt(N);
    String[] names={"ara","vhAcq","vhOpq","vhTyp","plain","unsafeVol"};
    long[] t=new long[names.length]; int sink=0;
    for(int round=0; round<400; round++){
      for(int k=0;k<names.length;k++){
        int j=(k+round)%names.length;
        long t0=CPU.getCurrentThreadCpuTime();
        switch(j){case 0: sink+=araSum();break; case 1: sink+=vhAcq();break; case 2: sink+=vhOpq();break; case 3: sink+=vhTyp();break; case 4: sink+=plain();break; default: sink+=unsafeVol();}
        long d=CPU.getCurrentThreadCpuTime()-t0; if(round>=100) t[j]+=d;
      }
    }
    for(int j=0;j<names.length;j++) System.out.printf("%-10s %.2f ns/get%n", names[j], t[j]/300.0/idx.length);
    System.out.println(sink);
  }
}
