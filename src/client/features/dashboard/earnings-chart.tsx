import type { Earnings } from '@shared/analytics';
import { brandName } from '@shared/brands';
import { formatMoney } from '@shared/money';
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from 'recharts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type ChartConfig, ChartContainer, ChartData, ChartTooltip } from '@/components/ui/chart';

const PAID: ChartConfig = { paid: { label: 'Paid', color: 'var(--chart-1)' } };

const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });

/**
 * The seller's earnings (issue 21, item 6): paid per month over the last 12 months, and by brand.
 * Its own file with the chart library, loaded by the dashboard once there is something to show.
 */
export default function EarningsChart({ earnings: data }: { earnings: Earnings }) {
  return (
    <Card data-testid="earnings-chart">
      <CardHeader>
        <CardTitle>Earnings</CardTitle>
        <CardDescription>Paid to you per month, over the last 12 months</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-[2fr_1fr]">
        <div>
          <ChartContainer config={PAID} label="Money paid to you per month" className="h-56">
            <BarChart
              data={data.months.map((m) => ({ month: monthName(m.month), paid: Number(m.paid) }))}
            >
              <CartesianGrid vertical={false} />
              <XAxis dataKey="month" tickLine={false} axisLine={false} />
              <YAxis tickLine={false} axisLine={false} width={48} tickFormatter={(v) => `$${v}`} />
              <ChartTooltip />
              <Bar dataKey="paid" name="Paid" fill="var(--color-paid)" radius={4} />
            </BarChart>
          </ChartContainer>
          <ChartData
            title="Paid per month"
            file="earnings-per-month"
            header={['Month', 'Paid']}
            rows={data.months.map((m) => [m.month, m.paid])}
          />
        </div>
        <div>
          <h3 className="mb-2 text-sm font-medium">By brand</h3>
          <ul className="grid gap-2 text-sm" aria-label="Paid by brand">
            {data.brands.map((b) => (
              <li key={b.cardType} className="flex justify-between gap-3 border-b pb-1">
                <span>{brandName(b.cardType)}</span>
                <span className="tabular-nums">{formatMoney(b.value)}</span>
              </li>
            ))}
          </ul>
        </div>
      </CardContent>
    </Card>
  );
}
