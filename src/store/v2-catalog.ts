/**
 * One tenant's v2 resources that v1 has no word for: deliveries of completed tasks, response schemas
 * and datasets. Made through the control plane (the service has no create route), read through /v2.
 * Each map keeps insertion order, which is the order lists answer in (newest first, reversed).
 */

export interface DeliveryRecord {
  id: string;
  name: string;
  /** The project's name (v1's key); v2 shows its id. */
  project: string;
  task_ids: string[];
  delivered_at: string;
  response_schema_id?: string;
}

export interface ResponseSchemaRecord {
  id: string;
  /** The schema as JSON text, as GET /v2/schema answers it. */
  json: string;
  /** Absent from exports made before schemas had them: GET /v2/schema then answers defaults. */
  name?: string;
  /** The account that registered it, and when (the tenant's clock). */
  created_by?: string;
  created_at?: string;
}

interface DatasetTaskRecord {
  task_id: string;
  response: Record<string, unknown>;
  attachments?: { id: string; file_id: string }[];
}

export interface DatasetDeliveryRecord {
  id: string;
  name: string;
  delivered_at: string;
  tasks: DatasetTaskRecord[];
}

export interface DatasetRecord {
  id: string;
  name: string;
  deliveries: DatasetDeliveryRecord[];
}

/** The catalog as a state export carries it. */
export interface V2CatalogState {
  deliveries: DeliveryRecord[];
  schemas: ResponseSchemaRecord[];
  datasets: DatasetRecord[];
}

/** Where a dataset task sits. */
export interface DatasetTaskPlace {
  dataset: DatasetRecord;
  delivery: DatasetDeliveryRecord;
  task: DatasetTaskRecord;
}

export class V2Catalog {
  readonly deliveries = new Map<string, DeliveryRecord>();
  readonly schemas = new Map<string, ResponseSchemaRecord>();
  readonly datasets = new Map<string, DatasetRecord>();
  private readonly datasetDeliveries = new Map<string, { dataset: DatasetRecord; delivery: DatasetDeliveryRecord }>();
  private readonly datasetTasks = new Map<string, DatasetTaskPlace>();
  /** The delivery that holds each delivered task (a task is delivered once). */
  private readonly deliveredIn = new Map<string, DeliveryRecord>();

  /**
   * Told of each record added (the owning Tenant publishes it on the store's feed, so --data-dir journals the
   * addition, never the whole catalog). Records are never changed or removed once added; a reset replaces the
   * catalog whole.
   */
  onAdded: ((added: Partial<V2CatalogState>) => void) | undefined = undefined;

  addDelivery(record: DeliveryRecord): void {
    this.deliveries.set(record.id, record);
    for (const id of record.task_ids) this.deliveredIn.set(id, record);
    this.onAdded?.({ deliveries: [record] });
  }

  addSchema(record: ResponseSchemaRecord): void {
    this.schemas.set(record.id, record);
    this.onAdded?.({ schemas: [record] });
  }

  deliveryOf(taskId: string): DeliveryRecord | undefined {
    return this.deliveredIn.get(taskId);
  }

  addDataset(dataset: DatasetRecord): void {
    this.datasets.set(dataset.id, dataset);
    for (const delivery of dataset.deliveries) {
      this.datasetDeliveries.set(delivery.id, { dataset, delivery });
      for (const task of delivery.tasks) this.datasetTasks.set(task.task_id, { dataset, delivery, task });
    }
    this.onAdded?.({ datasets: [dataset] });
  }

  datasetDelivery(id: string) {
    return this.datasetDeliveries.get(id);
  }

  datasetTask(id: string): DatasetTaskPlace | undefined {
    return this.datasetTasks.get(id);
  }

  get isEmpty(): boolean {
    return this.deliveries.size === 0 && this.schemas.size === 0 && this.datasets.size === 0;
  }

  toState(): V2CatalogState {
    return {
      deliveries: [...this.deliveries.values()],
      schemas: [...this.schemas.values()],
      datasets: [...this.datasets.values()],
    };
  }

  static fromState(state: V2CatalogState): V2Catalog {
    const catalog = new V2Catalog();
    for (const record of state.deliveries) catalog.addDelivery(record);
    for (const record of state.schemas) catalog.addSchema(record);
    for (const record of state.datasets) catalog.addDataset(record);
    return catalog;
  }
}
