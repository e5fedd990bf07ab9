// One unit of the call graphs that layering.test builds: function SELF
// calls function NEXT; with -DWEAK the call is a weak reference, with
// -DDATA SELF reads variable NEXT instead (a data reference, not a call);
// -DVAR=V also defines variable V.
#ifdef DATA
extern int NEXT;
int SELF(void) { return NEXT; }
#else
#ifdef WEAK
__attribute__((weak))
#endif
int NEXT(void);
int SELF(void) { return NEXT() + 1; }
#endif
#ifdef VAR
int VAR = 1;
#endif
