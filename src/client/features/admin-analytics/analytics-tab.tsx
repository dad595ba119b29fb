import { ANALYTICS_RANGES, type Analytics } from '@shared/analytics';
import { brandName } from '@shared/brands';
import { formatMoney } from '@shared/money';
import { useQuery } from '@tanstack/react-query';
import { DownloadIcon } from 'lucide-react';
import * as React from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, XAxis, YAxis } from 'recharts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type ChartConfig, ChartContainer, ChartData, ChartTooltip } from '@/components/ui/chart';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/lib/auth';
import { analyticsQuery } from './queries';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

/** Minutes as people say them: "45 min", "3 h 20 min", "2 d 4 h". */
export function duration(minutes: number | null) {
  if (minutes === null) return '—';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  return `${Math.floor(hours / 24)} d${hours % 24 ? ` ${hours % 24} h` : ''}`;
}

const CARDS: ChartConfig = {
  approved: { label: 'Approved', color: 'var(--chart-1)' },
  rejected: { label: 'Rejected', color: 'var(--chart-2)' },
  waiting: { label: 'Not decided', color: 'var(--chart-3)' },
};
const MONEY: ChartConfig = {
  valueSubmitted: { label: 'Value submitted', color: 'var(--chart-3)' },
  amountPaid: { label: 'Amount paid', color: 'var(--chart-1)' },
};
const BRANDS: ChartConfig = { value: { label: 'Value submitted', color: 'var(--chart-4)' } };
const STAFF: ChartConfig = {
  approved: { label: 'Approved', color: 'var(--chart-1)' },
  rejected: { label: 'Rejected', color: 'var(--chart-2)' },
};

const axisMoney = (value: number) => `$${value >= 1000 ? `${Math.round(value / 1000)}k` : value}`;

/**
 * The Analytics tab (issue 21, item 5): the business over 7, 30 or 90 days or a chosen range.
 * Owners and finance see it all; a reviewer sees their own decisions. Every chart has its table
 * and its CSV; the whole range downloads as one CSV from the server.
 */
export default function AnalyticsTab() {
  const { user } = useAuth();
  const ownOnly = user?.staffRole === 'reviewer';
  const today = day(Date.now());
  const [range, setRange] = React.useState({ from: day(Date.now() - 29 * DAY_MS), to: today });
  const query = useQuery(analyticsQuery(range.from, range.to));
  const a = query.data;
  const span = (days: number) =>
    setRange({ from: day(Date.now() - (days - 1) * DAY_MS), to: today });
  const spanDays = (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS + 1;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6" data-testid="analytics-tab">
      <div className="flex flex-wrap items-end gap-3">
        <fieldset className="flex gap-1">
          <legend className="sr-only">Range</legend>
          {ANALYTICS_RANGES.map((days) => (
            <Button
              key={days}
              type="button"
              size="sm"
              variant={range.to === today && spanDays === days ? 'default' : 'outline'}
              aria-pressed={range.to === today && spanDays === days}
              onClick={() => span(days)}
            >
              {days} days
            </Button>
          ))}
        </fieldset>
        <label className="grid gap-1 text-sm" htmlFor="analytics-from">
          From
          <Input
            id="analytics-from"
            type="date"
            className="h-8 w-40"
            value={range.from}
            max={range.to}
            onChange={(e) => e.target.value && setRange((r) => ({ ...r, from: e.target.value }))}
          />
        </label>
        <label className="grid gap-1 text-sm" htmlFor="analytics-to">
          To
          <Input
            id="analytics-to"
            type="date"
            className="h-8 w-40"
            value={range.to}
            min={range.from}
            max={today}
            onChange={(e) => e.target.value && setRange((r) => ({ ...r, to: e.target.value }))}
          />
        </label>
        <Button asChild size="sm" variant="outline" className="ml-auto">
          <a href={`/api/admin/analytics.csv?from=${range.from}&to=${range.to}`} download>
            <DownloadIcon /> All figures (CSV)
          </a>
        </Button>
      </div>
      {query.isError && (
        <p role="alert" className="text-sm text-destructive">
          Could not load the figures for this range.
        </p>
      )}
      {!a ? (
        <Skeleton className="h-64" />
      ) : ownOnly ? (
        <StaffChart a={a} title="Your decisions" />
      ) : (
        <>
          <section aria-label="Analytics summary" className="grid gap-4 sm:grid-cols-3">
            <Figure
              label="Approval rate"
              value={a.approvalRate === null ? '—' : `${(a.approvalRate * 100).toFixed(1)}%`}
              testId="approval-rate"
            />
            <Figure
              label="Median time to first decision"
              value={duration(a.medianMinutesToDecision)}
            />
            <Figure label="Median time to payment" value={duration(a.medianMinutesToPayment)} />
          </section>
          <div className="grid grid-cols-[minmax(0,1fr)] gap-6 xl:grid-cols-2">
            <ChartCard title="Cards per day" description="By what became of them">
              <ChartContainer config={CARDS} label="Cards submitted per day, by status">
                <BarChart
                  data={a.days.map((d) => ({
                    date: d.date.slice(5),
                    approved: d.approved,
                    rejected: d.rejected,
                    waiting: d.submitted - d.approved - d.rejected,
                  }))}
                >
                  <CartesianGrid vertical={false} />
                  <XAxis dataKey="date" tickLine={false} axisLine={false} minTickGap={16} />
                  <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={32} />
                  <ChartTooltip />
                  <Legend />
                  {Object.entries(CARDS).map(([key, c]) => (
                    <Bar
                      key={key}
                      dataKey={key}
                      name={c.label}
                      stackId="a"
                      fill={`var(--color-${key})`}
                    />
                  ))}
                </BarChart>
              </ChartContainer>
              <ChartData
                title="Cards per day"
                file={`cards-per-day-${a.from}-${a.to}`}
                header={['Date', 'Submitted', 'Approved', 'Rejected']}
                rows={a.days.map((d) => [d.date, d.submitted, d.approved, d.rejected])}
              />
            </ChartCard>
            <ChartCard title="Money per day" description="Value submitted, and amount paid">
              <ChartContainer config={MONEY} label="Value submitted and amount paid per day">
                <LineChart
                  data={a.days.map((d) => ({
                    date: d.date.slice(5),
                    valueSubmitted: Number(d.valueSubmitted),
                    amountPaid: Number(d.amountPaid),
                  }))}
                >
                  <CartesianGrid vertical={false} />
                  <XAxis dataKey="date" tickLine={false} axisLine={false} minTickGap={16} />
                  <YAxis tickFormatter={axisMoney} tickLine={false} axisLine={false} width={44} />
                  <ChartTooltip />
                  <Legend />
                  {Object.entries(MONEY).map(([key, c]) => (
                    <Line
                      key={key}
                      dataKey={key}
                      name={c.label}
                      stroke={`var(--color-${key})`}
                      strokeWidth={2}
                      dot={false}
                    />
                  ))}
                </LineChart>
              </ChartContainer>
              <ChartData
                title="Money per day"
                file={`money-per-day-${a.from}-${a.to}`}
                header={['Date', 'Value submitted', 'Amount paid']}
                rows={a.days.map((d) => [d.date, d.valueSubmitted, d.amountPaid])}
              />
            </ChartCard>
            <ChartCard title="Top brands" description="By value submitted">
              <ChartContainer config={BRANDS} label="Top brands by value submitted">
                <BarChart
                  layout="vertical"
                  data={a.brands.map((b) => ({
                    brand: brandName(b.cardType),
                    value: Number(b.value),
                  }))}
                >
                  <CartesianGrid horizontal={false} />
                  <XAxis
                    type="number"
                    tickFormatter={axisMoney}
                    tickLine={false}
                    axisLine={false}
                  />
                  <YAxis
                    type="category"
                    dataKey="brand"
                    width={96}
                    tickLine={false}
                    axisLine={false}
                  />
                  <ChartTooltip />
                  <Bar dataKey="value" name="Value submitted" fill="var(--color-value)" />
                </BarChart>
              </ChartContainer>
              <ChartData
                title="Top brands"
                file={`top-brands-${a.from}-${a.to}`}
                header={['Brand', 'Cards', 'Value']}
                rows={a.brands.map((b) => [brandName(b.cardType), b.cards, formatMoney(b.value)])}
              />
            </ChartCard>
            <StaffChart a={a} title="Decisions per staff member" />
          </div>
        </>
      )}
    </div>
  );
}

function StaffChart({ a, title }: { a: Analytics; title: string }) {
  return (
    <ChartCard title={title} description="Cards approved and rejected in the range">
      {a.staff.length === 0 ? (
        <p className="py-8 text-center text-sm text-muted-foreground">
          No decisions in this range.
        </p>
      ) : (
        <ChartContainer config={STAFF} label={`${title}: approved and rejected`}>
          <BarChart data={a.staff.map((s) => ({ who: s.name, ...s }))}>
            <CartesianGrid vertical={false} />
            <XAxis dataKey="who" tickLine={false} axisLine={false} />
            <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={32} />
            <ChartTooltip />
            <Legend />
            {Object.entries(STAFF).map(([key, c]) => (
              <Bar
                key={key}
                dataKey={key}
                name={c.label}
                stackId="s"
                fill={`var(--color-${key})`}
              />
            ))}
          </BarChart>
        </ChartContainer>
      )}
      <ChartData
        title={title}
        file={`decisions-${a.from}-${a.to}`}
        header={['Staff', 'Email', 'Decisions', 'Approved', 'Rejected']}
        rows={a.staff.map((s) => [s.name, s.email, s.decisions, s.approved, s.rejected])}
      />
    </ChartCard>
  );
}

function ChartCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <Card data-testid="chart-card" className="min-w-0">
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Card>
      <CardContent className="pt-6">
        <p className="text-sm text-muted-foreground">{label}</p>
        <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid={testId}>
          {value}
        </p>
      </CardContent>
    </Card>
  );
}
