import {
  type AdminPlanInput,
  adminPlanInputSchema,
  platformMessages as m,
  type SubscriptionPlan,
} from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { type DataColumn, DataTable } from '../../../components/ui/data-table';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { NumberInput } from '../../../components/ui/number-input';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useAdminPlans, useSavePlan } from '../api/admin-queries';
import { formatDecimal } from './admin-format';

const EMPTY: AdminPlanInput = {
  name: '',
  usdtToken: '0',
  ifcToken: '0',
  ifxToken: '0',
  availableCredit: '',
  active: true,
};

type Editing = { plan: SubscriptionPlan | null } | null;

function PlanForm({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const save = useSavePlan();
  const form = useForm({ resolver: zodResolver(adminPlanInputSchema), defaultValues: EMPTY });
  const { errors } = form.formState;
  const plan = editing?.plan ?? null;

  useEffect(() => {
    if (!editing) return;
    form.reset(
      plan
        ? {
            name: plan.name,
            usdtToken: plan.usdtToken,
            ifcToken: plan.ifcToken,
            ifxToken: plan.ifxToken,
            availableCredit: plan.availableCredit,
            active: plan.active,
          }
        : EMPTY,
    );
  }, [editing, plan, form]);

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const { message } = await save.mutateAsync({ id: plan?.id ?? null, input });
      toast.success(message || m.planSaved);
      onClose();
    } catch (error) {
      toast.error(errorMessage(error, 'The plan could not be saved. Please try again.'));
    }
  });

  return (
    <Modal
      open={editing !== null}
      onClose={save.isPending ? undefined : onClose}
      title={plan ? `Edit ${plan.name}` : 'New plan'}
      description="A price of 0 means the token is not charged."
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <Input label="Name" maxLength={40} error={errors.name?.message} {...form.register('name')} />
        <div className="grid gap-4 sm:grid-cols-3">
          <NumberInput label="Price USDT" error={errors.usdtToken?.message} {...form.register('usdtToken')} />
          <NumberInput label="Price IFC" error={errors.ifcToken?.message} {...form.register('ifcToken')} />
          <NumberInput label="Price IFX" error={errors.ifxToken?.message} {...form.register('ifxToken')} />
        </div>
        <NumberInput
          label="Profit limit granted (USDT)"
          error={errors.availableCredit?.message}
          {...form.register('availableCredit')}
        />
        <label className="flex items-center gap-2 text-sm text-fg">
          <input type="checkbox" className="size-4 accent-(--primary)" {...form.register('active')} />
          Offered to members
        </label>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save plan
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Subscription plans: prices per token and the profit limit they grant. */
export function AdminPlans() {
  const plans = useAdminPlans();
  const [editing, setEditing] = useState<Editing>(null);
  const columns: DataColumn<SubscriptionPlan>[] = [
    { key: 'name', header: 'Plan', cell: (p) => <span className="font-semibold">{p.name}</span> },
    { key: 'usdt', header: 'USDT', cell: (p) => formatDecimal(p.usdtToken), align: 'right' },
    { key: 'ifc', header: 'IFC', cell: (p) => formatDecimal(p.ifcToken), align: 'right' },
    { key: 'ifx', header: 'IFX', cell: (p) => formatDecimal(p.ifxToken), align: 'right' },
    { key: 'credit', header: 'Profit Limit', cell: (p) => formatDecimal(p.availableCredit), align: 'right' },
    {
      key: 'active',
      header: 'Status',
      cell: (p) => <Badge tone={p.active ? 'up' : 'neutral'}>{p.active ? 'Offered' : 'Hidden'}</Badge>,
    },
    {
      key: 'edit',
      header: <span className="sr-only">Actions</span>,
      label: 'Actions',
      align: 'right',
      cell: (p) => (
        <Button
          size="sm"
          variant="outline"
          onClick={() => setEditing({ plan: p })}
          aria-label={`Edit ${p.name}`}
        >
          Edit
        </Button>
      ),
    },
  ];
  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <Button onClick={() => setEditing({ plan: null })}>New plan</Button>
      </div>
      <DataTable
        caption="Plans"
        columns={columns}
        rows={plans.data}
        rowKey={(p) => p.id}
        loading={plans.isPending}
        error={plans.isError ? plans.error.message : null}
        onRetry={() => void plans.refetch()}
      />
      <PlanForm editing={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
