import { Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { HTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { EmptyState } from './EmptyState';
import type { TListFilters, TListFilterValues } from '../hooks/useListFilters';
import { ListPager, ListToolbar } from './ListControls';
import { PageHeader } from './PageHeader';
import { RowActionMenu } from './RowActionMenu';

/** One column of a list: its header text and what each row shows in it. */
export interface TListColumn<T> {
  key: string;
  header: string;
  cell: (item: T) => ReactNode;
  /** Keeps short values (a date, a status badge, a count) on one line instead of wrapping them. */
  nowrap?: boolean;
  testId?: string;
}

/** A row's "…" menu: the actions its state allows, run by the area's own hook. */
export interface TListRowActions<T, A extends string> {
  of: (item: T) => readonly A[];
  icons: Record<A, ReactNode>;
  /** Actions that stop or remove something, shown in red. */
  danger: readonly A[];
  /** The menu button's accessible name for a row. */
  label: (item: T) => string;
  textOf: (action: A) => string;
  onRun: (action: A, item: T) => void;
  /** The column's hidden header, for screen readers. */
  header: string;
}

/** What an empty list says: what is missing, and what to do next (with the button that does it). */
export interface TListEmpty {
  title: string;
  next: string;
  /** The button that creates the first item; left out for a user who may not create. */
  action?: ReactNode;
  /** Viewers get the read-only texts: nothing here yet, and they cannot add anything. */
  readOnly: boolean;
}

export interface TListPageProps<T, A extends string, F extends TListFilterValues> {
  title: string;
  description?: string;
  headerActions?: ReactNode;
  /** The list's search, filters and page, from `useListFilters`. */
  list: TListFilters<F>;
  searchPlaceholder: string;
  /** The filter and sort selects beside the search box. */
  filters: ReactNode;
  /** The list's query: its page of items and total, or its error. */
  query: {
    data?: { items: readonly T[]; total: number };
    isError: boolean;
    error: unknown;
    isPlaceholderData: boolean;
  };
  columns: readonly TListColumn<T>[];
  rowKey: (item: T) => string;
  /** Test ids and handlers of a row (`data-*` attributes, a click that opens it). */
  rowProps?: (item: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;
  rowActions?: TListRowActions<T, A>;
  empty: TListEmpty;
  /** The catalogue prefix of the pager's texts (`<texts>.range`, `.previous`, `.page`, `.next`). */
  texts: string;
  /** Names `<testId>-table`, `<testId>-pager`, `<testId>-menu` … for tests. */
  testId: string;
  pageSize: number;
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number;
  /** Dialogs the row actions open. */
  children?: ReactNode;
}

/**
 * A list page of the console (campaigns, scenarios, segments): its header, the search and
 * filters, the table with each row's actions, the pager, and an empty state that says what to do
 * next. Each area configures the columns, filters and actions; the shape is the same everywhere.
 */
export function ListPage<T, A extends string, F extends TListFilterValues>(props: TListPageProps<T, A, F>) {
  const { t } = useTranslation();
  const { query, columns, rowActions, empty, list } = props;
  const items = query.data?.items ?? [];

  const body = query.isError ? (
    <Text c="red" role="alert">
      {errorText(query.error, t)}
    </Text>
  ) : query.data && items.length === 0 ? (
    list.filtered ? (
      <EmptyState filtered onClear={list.clear} />
    ) : (
      <EmptyState
        readOnly={empty.readOnly}
        title={empty.title}
        description={empty.readOnly ? undefined : empty.next}
        action={empty.action}
      />
    )
  ) : (
    <Table.ScrollContainer minWidth={props.minWidth} type="native">
      <Table highlightOnHover data-testid={`${props.testId}-table`}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} style={{ whiteSpace: 'nowrap' }}>
                {column.header}
              </Table.Th>
            ))}
            {rowActions && (
              <Table.Th>
                <VisuallyHidden>{rowActions.header}</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={props.rowKey(item)} {...props.rowProps?.(item)}>
              {columns.map((column) => (
                <Table.Td
                  key={column.key}
                  data-testid={column.testId}
                  style={column.nowrap ? { whiteSpace: 'nowrap' } : undefined}
                >
                  {column.cell(item)}
                </Table.Td>
              ))}
              {rowActions && (
                <Table.Td>
                  <RowActionMenu
                    actions={rowActions.of(item)}
                    icons={rowActions.icons}
                    danger={rowActions.danger}
                    label={rowActions.label(item)}
                    textOf={rowActions.textOf}
                    onRun={(action) => rowActions.onRun(action, item)}
                    testId={props.testId}
                  />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );

  return (
    <>
      <PageHeader title={props.title} description={props.description} actions={props.headerActions} />
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <ListToolbar
            search={list.filters.search}
            onSearch={(search) => list.change({ search } as Partial<F>)}
            searchPlaceholder={props.searchPlaceholder}
            searchResetKey={list.searchResetKey}
          >
            {props.filters}
          </ListToolbar>
          {body}
          <ListPager
            texts={props.texts}
            testId={props.testId}
            page={list.page}
            pageSize={props.pageSize}
            query={{ data: query.data, isPlaceholderData: query.isPlaceholderData }}
            onPage={list.setPage}
          />
        </Stack>
      </Paper>
      {props.children}
    </>
  );
}
