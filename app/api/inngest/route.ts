import { serve } from "inngest/next";
import { inngest } from "@/lib/jobs/inngest/client";
import { functions } from "@/lib/jobs/inngest/functions";

// GET/POST/PUT /api/inngest – the Inngest serve endpoint (JOBS_DRIVER=inngest); no logic here
export const { GET, POST, PUT } = serve({ client: inngest, functions });
