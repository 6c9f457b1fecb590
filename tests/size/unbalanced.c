/* Size-check fixture: braces split across #if branches; the check refuses it. */
#ifdef WIDE
int f(int x, int y) {
#else
int f(int x) {
#endif
  return x;
}
