import { z } from 'zod';

/** An amount in a currency, as every view of bankops carries it (titled: MCP lists it once, as `money`). */
export const MoneySchema = z.object({ amount: z.number(), currency: z.string() }).meta({ title: 'Money' });
