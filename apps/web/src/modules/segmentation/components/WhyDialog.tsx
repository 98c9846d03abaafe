import { Alert, Badge, Group, Loader, Modal, Paper, Select, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TExplainBooking, TExplainGroup, TExplanation } from '@yado/contracts/segments';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { formatYen } from '../../customers/format';
import { explanationQuery, segmentChoicesQuery } from '../api/segmentsCalls';
import { conditionText, valueText } from '../conditionText';
import { sourcesOf, useChoiceOptions } from '../hooks/useChoiceOptions';
import { roomTypeText } from '../../ui/text/roomTypeText';
import { bookingSourceText } from '../../ui/text/bookingSourceText';

type TExplainItem = TExplainGroup['items'][number];

function fieldsOf(explanation: TExplanation | undefined): string[] {
  const out: string[] = [];
  const walk = (items: TExplainItem[]) =>
    items.forEach((i) => (i.kind === 'group' ? walk(i.items) : out.push(i.field)));
  explanation?.groups.forEach((g) => walk(g.items));
  return out;
}

/**
 * "Why is this guest in?": in or out, each condition held or failed with the customer's own
 * value, and for booking conditions the booking that matched (or came closest). Without a
 * segment given (from a customer's page), the user picks one.
 */
export function WhyDialog({
  opened,
  onClose,
  customer,
  segment,
}: {
  opened: boolean;
  onClose: () => void;
  customer: { id: string; fullName: string } | null;
  segment?: { id: string; name: string } | null;
}) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const choices = useQuery(segmentChoicesQuery(search, opened && !segment));
  const segmentId = segment?.id ?? chosen ?? '';
  const explanation = useQuery({
    ...explanationQuery(segmentId, customer?.id ?? ''),
    enabled: opened && Boolean(segmentId && customer),
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      title={t('segmentation.why.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md" data-testid="why-dialog">
        <Text size="sm" c="dimmed">
          {customer?.fullName}
          {segment ? ` · ${segment.name}` : ''}
        </Text>
        {!segment && (
          <Select
            label={t('segmentation.why.segment')}
            placeholder={t('segmentation.builder.choose')}
            data={(choices.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            value={chosen}
            onChange={setChosen}
            searchable
            onSearchChange={setSearch}
            nothingFoundMessage={t('segmentation.builder.no_match')}
            data-testid="why-segment"
          />
        )}
        {explanation.isFetching && !explanation.data && <Loader size="sm" />}
        {explanation.isError && (
          <Text c="red" role="alert">
            {errorText(explanation.error, t)}
          </Text>
        )}
        {explanation.data && <ExplanationView explanation={explanation.data} />}
      </Stack>
    </Modal>
  );
}

function Verdict({ held }: { held: boolean }) {
  const { t } = useTranslation();
  return (
    <ThemeIcon
      size="sm"
      radius="xl"
      color={held ? 'teal' : 'red'}
      variant="light"
      aria-label={t(held ? 'segmentation.why.held' : 'segmentation.why.failed')}
    >
      {held ? <IconCheck size={14} /> : <IconX size={14} />}
    </ThemeIcon>
  );
}

export function ExplanationView({ explanation }: { explanation: TExplanation }) {
  const { t } = useTranslation();
  const choicesOf = useChoiceOptions(sourcesOf(fieldsOf(explanation)));
  return (
    <Stack gap="sm" data-testid="explanation" data-in={explanation.in ? 'true' : 'false'}>
      <Alert color={explanation.in ? 'teal' : 'gray'} data-testid="why-verdict">
        <Text fw={700}>{t(explanation.in ? 'segmentation.why.in' : 'segmentation.why.out')}</Text>
      </Alert>
      {!explanation.inScope && <Text size="sm">{t('segmentation.why.out_of_scope')}</Text>}
      {explanation.inScope && explanation.type === 'static' && (
        <Text size="sm">{t(explanation.listed ? 'segmentation.why.listed' : 'segmentation.why.not_listed')}</Text>
      )}
      {explanation.inScope && explanation.type === 'dynamic' && explanation.join && explanation.groups.length > 1 && (
        <Text size="sm" c="dimmed">
          {t('segmentation.why.joined_by', { join: t(`segmentation.builder.join.${explanation.join}`) })}
        </Text>
      )}
      {explanation.inScope &&
        explanation.groups.map((group, index) => (
          <GroupView
            key={group.path}
            group={group}
            title={t('segmentation.builder.group', { number: index + 1 })}
            choicesOf={choicesOf}
          />
        ))}
    </Stack>
  );
}

function GroupView({
  group,
  title,
  choicesOf,
}: {
  group: TExplainGroup;
  title: string;
  choicesOf: ReturnType<typeof useChoiceOptions>;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="why-group" data-held={group.held ? 'true' : 'false'}>
      <Stack gap={6}>
        <Group gap="xs">
          <Verdict held={group.held} />
          <Text fw={600} size="sm">
            {title}
          </Text>
          {group.items.length > 1 && (
            <Badge variant="light" color="grape" size="sm">
              {t(`segmentation.builder.join.${group.join}`)}
            </Badge>
          )}
        </Group>
        {group.items.map((item) =>
          item.kind === 'group' ? (
            <GroupView key={item.path} group={item} title={t('segmentation.builder.subgroup')} choicesOf={choicesOf} />
          ) : (
            <Group
              key={item.path}
              gap="xs"
              wrap="nowrap"
              align="flex-start"
              data-testid="why-condition"
              data-held={item.held ? 'true' : 'false'}
            >
              <Verdict held={item.held} />
              <Stack gap={0}>
                <Text size="sm">{conditionText(item, t, language, choicesOf)}</Text>
                <Text size="xs" c="dimmed">
                  {t('segmentation.why.actual', {
                    value:
                      item.actual === null
                        ? t('segmentation.why.no_value')
                        : valueText(item.field, item.actual, t, language, choicesOf),
                  })}
                </Text>
              </Stack>
            </Group>
          ),
        )}
        {group.bookings && (
          <Stack gap={4} pl="lg" data-testid="why-bookings">
            <Group gap="xs">
              <Verdict held={group.bookings.held} />
              <Text size="sm">
                {t(
                  group.bookings.quantifier === 'none'
                    ? 'segmentation.why.bookings_none'
                    : 'segmentation.why.bookings_at_least',
                  {
                    count: group.bookings.matched,
                    need: group.bookings.count,
                  },
                )}
              </Text>
            </Group>
            {group.bookings.booking && (
              <BookingView booking={group.bookings.booking} matched={group.bookings.matched > 0} />
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function BookingView({ booking, matched }: { booking: TExplainBooking; matched: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const day = (value: string) => formatDate(`${value.slice(0, 10)}T00:00:00Z`, language, { noOffset: true });
  return (
    <Paper radius="sm" p="xs" bg={matched ? 'teal.0' : 'gray.0'} data-testid="why-booking">
      <Text size="xs" fw={600} c="dimmed">
        {t(matched ? 'segmentation.why.matching_booking' : 'segmentation.why.closest_booking')}
      </Text>
      <Text size="sm">
        {t('segmentation.why.booking_line', {
          hotel: booking.hotelName,
          checkIn: day(booking.checkIn),
          checkOut: day(booking.checkOut),
          amount: formatYen(booking.amount, language),
        })}
      </Text>
      <Text size="xs" c="dimmed">
        {t('segmentation.why.booking_more', {
          date: day(booking.bookingDate),
          nights: t('segmentation.why.nights', { count: booking.nights }),
          guests: t('segmentation.why.guests', { count: booking.guests }),
          roomType: roomTypeText(booking.roomType, t),
          source: bookingSourceText(booking.source, t),
          status: t(`segmentation.options.booking_status.${booking.status}`, { defaultValue: booking.status }),
        })}
      </Text>
    </Paper>
  );
}
