/* Reset and fault handling for the Cortex-M4F: the vector table, the FPU
 * switched on, .data copied and .bss zeroed, the stack painted for the
 * high-water mark, then main; a fault prints its registers and exits 3. */
#include <stdint.h>

#include "semihost.h"

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern uint32_t __stack_limit[], __stack_top[];
int main(void);

#define REG(a) (*(volatile uint32_t *)(a))
#define U(x) ((unsigned)(x))
#define SCB_CPACR 0xe000ed88u
#define SCB_SHCSR 0xe000ed24u
#define SCB_CFSR 0xe000ed28u
#define SCB_HFSR 0xe000ed2cu
#define SCB_MMFAR 0xe000ed34u
#define SCB_BFAR 0xe000ed38u

/* A fault: the stacked frame names the faulting pc. */
void board_fault_report(const uint32_t *frame, uint32_t exc_return) {
  (void)exc_return;
  sh_printf("board: fault: CFSR=0x%x HFSR=0x%x MMFAR=0x%x BFAR=0x%x pc=0x%x lr=0x%x\n", U(REG(SCB_CFSR)),
            U(REG(SCB_HFSR)), U(REG(SCB_MMFAR)), U(REG(SCB_BFAR)), U(frame[6]), U(frame[5]));
  sh_exit(3);
}

__attribute__((naked)) void board_fault(void) {
  __asm__ volatile("tst lr, #4\n"
                   "ite eq\n"
                   "mrseq r0, msp\n"
                   "mrsne r0, psp\n"
                   "mov r1, lr\n"
                   "b board_fault_report\n");
}

__attribute__((noreturn)) void board_reset(void) {
  /* CP10/CP11 full access: the FPU, before any float instruction. */
  REG(SCB_CPACR) |= 0xfu << 20;
  __asm__ volatile("dsb\nisb" ::: "memory");
  /* Round to nearest, no flush-to-zero, no default NaN: IEEE-754 as wasm. */
  __asm__ volatile("vmsr fpscr, %0" ::"r"(0u));
  /* MemManage, BusFault and UsageFault report as themselves. */
  REG(SCB_SHCSR) |= 7u << 16;
  for (uint32_t *s = __data_load, *d = __data_start; d < __data_end;)
    *d++ = *s++;
  for (uint32_t *d = __bss_start; d < __bss_end;)
    *d++ = 0;
  /* Paint the stack below this frame (this function uses a few words). */
  uint32_t *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  for (uint32_t *w = __stack_limit; w < sp - 16; w++)
    *w = 0xa5a5a5a5u;
  sh_exit(main());
}

/* Initial stack, reset, then NMI, HardFault, MemManage, BusFault,
 * UsageFault; the rest are unused (no interrupts are enabled). */
__attribute__((section(".vectors"), used)) static const void *const vectors[16] = {
    __stack_top, board_reset, board_fault, board_fault, board_fault, board_fault, board_fault,
};
