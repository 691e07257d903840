/* Two processes increment a shared counter without a lock; the assertion
   that the counter ends at 2 fails (the lost update). */
byte count;
byte done;

active [2] proctype inc() {
    byte tmp;
    tmp = count;
    count = tmp + 1;
    done++
}

active proctype check() {
    done == 2;
    assert(count == 2)
}
